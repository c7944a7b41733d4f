import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
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

/**
 * Written into a data folder that existed before Retrace used it (a folder the person chose, a
 * shared one with mode 1777): its mode is theirs, and stays as it is on every later open.
 */
export const FOLDER_NOT_CREATED_FILE = 'folder-mode-is-yours.txt'
const FOLDER_NOT_CREATED_TEXT =
  'This folder existed before Retrace used it as its data folder, so Retrace leaves its permissions as they are.\n' +
  'What Retrace keeps in it is private all the same: its files are 0600, its folders 0700.\n'

/**
 * The data folder: created 0700 (with any missing parents) when it is not there. An existing one
 * is tightened to 0700 only if Retrace made it — it holds Retrace's database (`databaseFile`; an
 * earlier Retrace, or a umask of 022, left it open) and no note that it was the person's. A folder
 * found without a database was given by the person: its mode is left, and noted as theirs.
 */
export function privateDataFolder(path: string, databaseFile: string): void {
  let existed: boolean
  try {
    existed = statSync(path).isDirectory()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    existed = false
  }
  if (!existed || !posix) {
    privateFolder(path)
    return
  }
  if (existsSync(join(path, FOLDER_NOT_CREATED_FILE))) return
  if (existsSync(join(path, databaseFile))) {
    tighten(path, PRIVATE_FOLDER_MODE)
    return
  }
  writeFileSync(join(path, FOLDER_NOT_CREATED_FILE), FOLDER_NOT_CREATED_TEXT, { mode: PRIVATE_FILE_MODE })
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
