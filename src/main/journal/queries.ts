import type { FileVersion, JournalEntry, JournalRepository } from '../store/repositories/journal'
import type { RelPath } from '../fs/paths'

/**
 * The version of `path` at a session's checkpoint "before turn `turn`", from the session's
 * journal: the state before the first change at or after that turn, or else the state after
 * the last change before it. `undefined` when the session never touched the path.
 */
export function versionBefore(repo: JournalRepository, sessionRowId: number, path: RelPath, turn: number): FileVersion | null | undefined {
  const entries = repo.sessionEntriesFrom(sessionRowId, 1).filter((e) => touches(e, path))
  const next = entries.find((e) => e.turn >= turn)
  if (next) return sideOf(next, path, 'before')
  const last = entries.at(-1)
  return last ? sideOf(last, path, 'after') : undefined
}

function touches(entry: JournalEntry, path: RelPath): boolean {
  return entry.path.equals(path) || (entry.fromPath !== null && entry.fromPath.equals(path))
}

/** A file's version on one side of an entry: a rename empties its old path and fills its new one. */
export function sideOf(entry: JournalEntry, path: RelPath, side: 'before' | 'after'): FileVersion | null {
  if (entry.op === 'rename') {
    const isOld = entry.fromPath?.equals(path) ?? false
    if (side === 'before') return isOld ? entry.before : null
    return isOld ? null : entry.after
  }
  return entry[side]
}
