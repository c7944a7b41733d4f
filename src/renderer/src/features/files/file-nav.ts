import type { ChangeGroup } from './changes'

export interface FileNeighbours {
  /** 1-based position of the open file among the turn's files; 0 when it is not among them (yet). */
  position: number
  total: number
  previous: ChangeGroup | null
  next: ChangeGroup | null
}

/** Where the open file sits among its turn's files, and the files before and after it (no wrap-around). */
export function fileNeighbours(groups: readonly ChangeGroup[], key: string): FileNeighbours {
  const index = groups.findIndex((group) => group.key === key)
  if (index === -1) return { position: 0, total: groups.length, previous: null, next: null }
  return { position: index + 1, total: groups.length, previous: groups[index - 1] ?? null, next: groups[index + 1] ?? null }
}

/**
 * The `returnFocus` of a neighbour: the same prefix as the open file's (a replay's rows carry
 * one), then the neighbour's row id, so closing the dialog focuses the row of the file shown last.
 */
export function neighbourFocus(returnFocus: string, currentId: string, neighbourId: string): string {
  const prefix = returnFocus.endsWith(currentId) ? returnFocus.slice(0, returnFocus.length - currentId.length) : ''
  return `${prefix}${neighbourId}`
}
