import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LOCK_FILE = 'app.pid'

/**
 * The app (the window or `retrace serve`) says it is running on this data folder: it imports
 * every agent's history itself, and `retrace import --all --watch` (a user service) waits while
 * it does, so that two processes never import the same files at once. Returns the release.
 */
export function holdAppLock(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE)
  try {
    writeFileSync(file, String(process.pid))
  } catch {
    return () => undefined // a read-only folder: the service's rounds simply go on
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file)
    } catch {
      // already gone
    }
  }
}

/** The pid of the live process holding the app lock on this data folder (the app or `serve`), or null. */
export function appLockHolder(dataDir: string): number | null {
  let pid: number
  try {
    pid = Number(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))
  } catch {
    return null
  }
  if (!Number.isInteger(pid) || pid <= 0) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: alive, another user's (not ours to judge); ESRCH: a crash left the file behind.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}
