import { unlink } from 'node:fs/promises'
import { forEachConcurrently } from './concurrently'

/**
 * Files a large rewind replaces are set aside, not freed, while it runs. Just before a lane
 * renames a temp over a file, it links that file at a name beside it (the temp's name plus
 * `-replaced`, so it carries the temp prefix every sweep already removes). The rename then only
 * drops a name: freeing a file's blocks is the slowest part of a rename over it (on ext4 mounted
 * with `discard` it waits for the device: several times the cost of a link plus a rename that
 * frees nothing), and nothing the rewind promises depends on it. Once the rewind is complete its
 * intent log is marked applied, the rewind returns, and the set-aside names are removed in the
 * background (removeSetAside), where the blocks are freed at last. Their content is in the
 * store: the rewind captured it before changing anything.
 *
 * A crash before the mark rolls the rewind back and sweeps them with the temps; a crash after it
 * only sweeps them (recover.ts).
 */
export const asideOf = (temp: Buffer): Buffer => Buffer.concat([temp, SUFFIX])

const SUFFIX = Buffer.from('-replaced')

/** Unlinks at once: each waits on the disk (the discard of the freed blocks), so a few overlap. */
const CONCURRENCY = 8

/**
 * Remove set-aside files; those not there (never linked, or already gone) count as removed.
 * True if every one is gone; false if some could not be removed (the next start sweeps them).
 */
export async function removeSetAside(paths: Buffer[]): Promise<boolean> {
  let complete = true
  await forEachConcurrently(paths, CONCURRENCY, (path) =>
    unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') complete = false
    })
  )
  return complete
}
