import { lstatSync } from 'node:fs'
import type { FileVersion } from '../../store/repositories/journal'
import { sameVersion, stateAt, type FsOps, type StatStamp } from '../workspace-fs'

/**
 * How a rewind changes a file without losing a byte somebody writes to it at that moment (R33).
 * Checking a file's hash and then renaming over it loses whatever lands between the two; so
 * the file is first moved aside (renamed, in its own folder: same file system, the same inode,
 * so a writer's open descriptor follows it), then proven to be what the plan saw, and only
 * then is the new content put at the path, never over anything (a link, which fails if the
 * path was filled meanwhile). A file found changed once moved goes back to its path. What was
 * set aside stays until the rewind is over, and is kept as a visible copy if it changed in the
 * meantime (asides.ts).
 */

/** Codes of `link` on file systems without hard links (FAT, some network and FUSE ones). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS'])

/**
 * Put the file at `from` at `to` only if nothing is there: a hard link then the old name
 * removed, so a file somebody created at `to` meanwhile is never replaced. True if it was
 * placed; false if `to` was taken (`from` is then left as it is). Where the file system has no
 * hard links, and for symbolic links (whose hard links not every system makes), it looks, then
 * renames: a window of microseconds. `from` may be gone afterwards only once placed.
 */
export async function placeNoReplace(ops: FsOps, from: Buffer, to: Buffer, isLink = false): Promise<boolean> {
  if (!isLink) {
    let linked = false
    try {
      await ops.link(from, to)
      linked = true
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? ''
      if (code === 'EEXIST') return false
      if (!NO_HARD_LINKS.has(code)) throw error
    }
    if (linked) {
      await ops.unlink(from)
      return true
    }
  }
  if (lstatSync(to, { throwIfNoEntry: false })) return false
  await ops.rename(from, to)
  return true
}

export type Moved = 'moved' | 'gone' | 'changed'

/**
 * Rename the file at `absolute` to `aside` and prove the moved file is `expected`: 'moved';
 * 'gone' if nothing was at `absolute`; 'changed' if it is not `expected` (it stays at `aside`:
 * the caller puts it back).
 */
export async function moveAside(ops: FsOps, absolute: Buffer, aside: Buffer, expected: FileVersion, stamp: StatStamp | null): Promise<Moved> {
  try {
    await ops.rename(absolute, aside)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone'
    throw error
  }
  return (await holds(aside, expected, stamp)) ? 'moved' : 'changed'
}

/**
 * True if `absolute` holds `expected`. With `stamp` (taken when the content was proven, and not
 * racy: see WorkspaceFs.stampedState) an unchanged inode, size, mode and mtime prove it without
 * reading: every write sets the mtime to the current time, and the stamp's is older than the
 * racy window. The ctime is left out: a rename (the move aside) sets it. Otherwise it is hashed.
 */
export async function holds(absolute: Buffer, expected: FileVersion, stamp: StatStamp | null): Promise<boolean> {
  const stats = lstatSync(absolute, { bigint: true, throwIfNoEntry: false })
  if (!stats) return false
  if (stamp && stats.dev === stamp.dev && stats.ino === stamp.ino && stats.size === stamp.size && stats.mtimeNs === stamp.mtimeNs && stats.mode === stamp.mode) return true
  return sameVersion(await stateAt(absolute), expected)
}
