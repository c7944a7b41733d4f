import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The data folder holds every transcript and every file snapshot Retrace saved: private to the
 * user. Modes are set with chmod, not only at creation, because creation modes are filtered by
 * the process's umask (022 leaves everything readable by others), and an earlier Retrace left
 * them that way. Windows has no such modes: nothing is done there.
 */
export const PRIVATE_FOLDER_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

const posix = process.platform !== 'win32'

/** `path` created if needed (and its missing parents), and made 0700. True if it was not 0700 before. */
export function privateFolder(path: string): boolean {
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE })
  return posix ? tighten(path, PRIVATE_FOLDER_MODE) : false
}

/** An existing file made 0600 (nothing if it is not there). */
export function privateFile(path: string): void {
  if (!posix) return
  try {
    tighten(path, PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * Every folder under `root` made 0700 and every file 0600, for a folder found open to others
 * (an earlier Retrace's): once tightened it stays so, and this walk is not repeated.
 */
export function privateTree(root: string): void {
  if (!posix) return
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name)
    if (entry.isDirectory()) {
      tighten(path, PRIVATE_FOLDER_MODE)
      privateTree(path)
    } else if (entry.isFile()) {
      tighten(path, PRIVATE_FILE_MODE)
    }
  }
}

/** chmod to `mode` when the permission bits differ; true if they did. */
function tighten(path: string, mode: number): boolean {
  if ((statSync(path).mode & 0o7777) === mode) return false
  chmodSync(path, mode)
  return true
}
