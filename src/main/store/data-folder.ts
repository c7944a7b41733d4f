import { statfsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { RetraceError } from '../../shared/contract'
import { privateDataFolder } from './private-files'

/**
 * Linux's pseudo file systems, by the magic number statfs reports: they hold no files of their
 * own, and Node's recursive mkdir loops forever in /proc instead of failing (seen with Node 22).
 */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x1cd1, 'devpts'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'],
  [0x6165676c, 'pstore'],
  [0x65735543, 'fusectl']
])

const CHOOSE = 'Choose another --data-dir (or RETRACE_HOME).'

/**
 * The data folder made ready: created with its missing parents, private to the user (0700; an
 * existing folder as privateDataFolder says).
 * What stands in the way is refused in a sentence naming it, before anything is created: a file
 * where a folder must be, a pseudo file system, a folder Retrace may not create anything in.
 */
export function prepareDataFolder(dataDir: string, databaseFile: string): void {
  const existing = nearestExisting(dataDir)
  const refuse = (why: string) => new RetraceError('IO_ERROR', `Retrace cannot keep its data in ${dataDir}: ${why}`)
  if (existing && !existing.isFolder) throw refuse(`${existing.path === dataDir ? 'it' : existing.path} is a file, not a folder. ${CHOOSE}`)
  const pseudo = existing ? pseudoFileSystem(existing.path) : null
  if (existing && pseudo) throw refuse(`${mountOf(existing.path)} is a ${pseudo} file system, which holds no files of its own. ${CHOOSE}`)
  try {
    privateDataFolder(dataDir, databaseFile)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    const where = existing?.path ?? dirname(dataDir)
    if (code === 'EACCES' || code === 'EPERM') throw refuse(`it may not create folders in ${where} (${code}). ${CHOOSE.slice(0, -1)}, or change that folder's permissions.`)
    if (code === 'EROFS') throw refuse(`${where} is on a read-only file system (EROFS). ${CHOOSE}`)
    if (code === 'ENOSPC') throw refuse(`the disk holding ${where} is full (ENOSPC). Free some space, or ${CHOOSE.charAt(0).toLowerCase()}${CHOOSE.slice(1)}`)
    throw refuse(`${(error as Error).message}. ${CHOOSE}`)
  }
}

/** The deepest part of `path` that exists, and whether it is a folder (a link is followed). */
function nearestExisting(path: string): { path: string; isFolder: boolean } | null {
  for (let current = path; ; current = dirname(current)) {
    try {
      return { path: current, isFolder: statSync(current).isDirectory() }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A file where a folder must be: ENOTDIR names its child; the file itself is found next.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null
    }
    if (dirname(current) === current) return null
  }
}

function pseudoFileSystem(path: string): string | null {
  if (process.platform !== 'linux') return null
  try {
    return PSEUDO_FILE_SYSTEMS.get(statfsSync(path).type) ?? null
  } catch {
    return null
  }
}

/** The top folder of the pseudo file system `path` is on (`/proc` for `/proc/self`), to name it. */
function mountOf(path: string): string {
  const type = pseudoFileSystem(path)
  let top = path
  while (dirname(top) !== top && pseudoFileSystem(dirname(top)) === type) top = dirname(top)
  return top
}
