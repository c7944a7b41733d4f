import type { EntryRow, RollbackRow } from './store-db'

const UNDONE: Record<string, string> = {
  create: 'deleted again (the turn had created it)',
  write: 'restored to its content before the turn',
  delete: 'recreated (the turn had deleted it)',
  move: 'moved back'
}

/**
 * y-agent's record of a rollback (`RollbackReport`) as a note in the transcript: which of the
 * turn's changes it undid, and each conflict (a file changed by someone else since the journal
 * entry, which the rollback left alone). Retrace's own journal keeps the turn's changes as they
 * were made; its checkpoint is invalidated, so this note says what happened to the files after.
 */
export function rollbackNote(rollback: RollbackRow, entries: EntryRow[], pathFor: (path: string) => string): string {
  const when = rollback.startedAt !== undefined ? ` at ${new Date(rollback.startedAt).toISOString()}` : ''
  const parts = [`y-agent rolled this turn back${when}: ${count(rollback.restored, 'change')} undone, ${rollback.skipped} skipped.`]
  for (const entry of entries) {
    if (entry.rolledBack) parts.push(`${pathFor(entry.filePath)} was ${UNDONE[entry.operation] ?? 'restored'}.`)
  }
  for (const conflict of rollback.conflicts) {
    const hashes = conflict.expectedHash || conflict.currentHash ? ` (the turn wrote ${short(conflict.expectedHash)}, the file now is ${short(conflict.currentHash)})` : ''
    parts.push(`Conflict on ${pathFor(conflict.filePath)}: ${conflict.reason || 'changed since the journal entry'}${hashes}; the rollback left it as it is.`)
  }
  return parts.join(' ')
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function short(hash: string | null): string {
  return hash ? `${hash.slice(0, 8)}…` : 'unknown'
}
