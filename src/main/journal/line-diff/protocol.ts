import type { LineDiff, LineDiffBounds } from './line-diff.mts'

/** A diff asked of the diff thread. */
export interface DiffRequest {
  id: number
  oldText: string
  newText: string
  countsOnly: boolean
  bounds?: LineDiffBounds
}

/** Its answer: the diff, or why the thread could not make it. */
export type DiffAnswer = { id: number; diff: LineDiff } | { id: number; error: string }
