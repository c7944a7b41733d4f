import type { RelPath } from '../../fs/paths'
import type { FileVersion } from '../../store/repositories/journal'

/** For one path: what the rewind should put there, and what the journal last saw there. */
export interface PathTarget {
  path: RelPath
  /** The state to restore (null: the path should not exist). */
  target: FileVersion | null
  /** The journal's last known state: anything else on disk is someone else's work. */
  expected: FileVersion | null
}
