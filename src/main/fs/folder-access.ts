import { constants, accessSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { RetraceError } from '../../shared/contract'

/** `~` and `~/x` mean the home folder, as people type them. */
export function expandHome(path: string): string {
  if (path === '~') return homedir()
  if (path.startsWith('~/')) return join(homedir(), path.slice(2))
  return path
}

/**
 * Resolve a folder a person asked to open, and prove it is a readable directory. The result is
 * the real path (symlinks resolved), so one folder is one workspace however it was reached.
 * Every refusal names the path and says what to do.
 */
export function resolveReadableFolder(requested: string): string {
  if (requested.includes('\0')) throw new RetraceError('VALIDATION', 'The folder path contains a NUL character.')
  const path = resolve(expandHome(requested.trim()))
  let stats
  try {
    stats = statSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EACCES' || code === 'EPERM') {
      throw new RetraceError('PATH_UNREADABLE', `Retrace cannot read ${path}: permission denied. Check the folder's permissions.`)
    }
    throw new RetraceError('PATH_NOT_FOUND', `There is no folder at ${path}. Check the path, or choose another folder.`)
  }
  if (!stats.isDirectory()) {
    throw new RetraceError('NOT_A_DIRECTORY', `${path} is a file, not a folder. Open the folder that contains it instead.`)
  }
  try {
    accessSync(path, constants.R_OK | constants.X_OK)
    readdirSync(path)
  } catch {
    throw new RetraceError('PATH_UNREADABLE', `Retrace cannot read the folder ${path}: permission denied. Check its permissions.`)
  }
  return realpathSync(path)
}

/** The sub-folders of a folder (names only, hidden ones left out), for the web folder picker. */
export function listSubfolders(requested: string | undefined): { path: string; parent: string | null; home: string; entries: { name: string; path: string }[] } {
  const home = homedir()
  const path = resolveReadableFolder(requested && isAbsolute(expandHome(requested)) ? requested : home)
  const entries = readdirSync(path, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.') && isFolder(path, entry))
    .map((entry) => ({ name: entry.name, path: join(path, entry.name) }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const parent = dirname(path)
  return { path, parent: parent === path ? null : parent, home, entries }
}

function isFolder(parent: string, entry: { name: string; isDirectory(): boolean; isSymbolicLink(): boolean }): boolean {
  if (entry.isDirectory()) return true
  if (!entry.isSymbolicLink()) return false
  try {
    return statSync(join(parent, entry.name)).isDirectory()
  } catch {
    return false
  }
}

/** A folder is at the path now (false when nothing, or a file, is there). */
export function folderIsHere(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

export function folderName(path: string): string {
  return basename(path) || path
}
