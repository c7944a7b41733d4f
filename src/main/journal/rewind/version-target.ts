import { RetraceError } from '../../../shared/contract'
import { displayPath, keyOf, type RelPath } from '../../fs/paths'
import type { FileVersion, JournalEntry } from '../../store/repositories/journal'
import type { PathTarget } from './path-target'

/**
 * The target of "Restore this version" (a one-file rewind): `hash` as one of the versions the
 * journal recorded at `path` (an entry's after-state at the path, or its before-state where the
 * entry changed or moved it away), and, as what the disk is expected to hold, the last state the
 * journal knows there. A hash the path's history never held is refused: nothing else is written.
 */
export function versionTarget(history: readonly JournalEntry[], path: RelPath, hash: string): PathTarget {
  const key = keyOf(path)
  const at = (p: RelPath | null) => p !== null && keyOf(p) === key
  let target: FileVersion | null = null
  for (const entry of history) {
    if (at(entry.path) && entry.after?.hash === hash) target = entry.after
    else if (at(entry.fromPath ?? entry.path) && entry.before?.hash === hash) target = entry.before
  }
  if (!target) throw new RetraceError('NOT_FOUND', `No recorded version ${hash.slice(0, 8)} of ${displayPath(path)} in this workspace.`)
  const last = history.at(-1)
  const expected = last && at(last.path) ? last.after : null
  return { path, target, expected }
}
