import type { MethodOutput } from '../../../../shared/contract'

export type RewindSummary = MethodOutput<'rewind.list'>['items'][number]

export const STATUS_LABELS: Record<RewindSummary['status'], string> = {
  applying: 'in progress',
  applied: 'applied',
  undone: 'undone',
  rolled_back: 'rolled back: nothing changed',
  failed: 'failed: nothing changed'
}

/** What one rewind did, in words ("Files back to before turn 3", "Undo of the rewind to before turn 3"). */
export function describeRewind(rewind: RewindSummary, all: readonly RewindSummary[]): string {
  if (rewind.undoOf === null) return rewind.targetTurn === null ? 'Rewind of files' : `Files back to before turn ${rewind.targetTurn}`
  const undone = all.find((other) => other.id === rewind.undoOf)
  if (!undone) return 'Undo of an earlier rewind'
  return `Undo of: ${describeRewind(undone, all).replace(/^F/, 'f')}`
}

/** Newest first; only an applied rewind can be undone. */
export function historyRows(items: readonly RewindSummary[]): { rewind: RewindSummary; label: string; canUndo: boolean }[] {
  return [...items]
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((rewind) => ({ rewind, label: describeRewind(rewind, items), canUndo: rewind.status === 'applied' }))
}
