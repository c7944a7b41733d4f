import { createHash } from 'node:crypto'
import { readdirSync, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'

import { KILO_DB_NAME } from './kilo'
import { statOrNull } from '../../fs/stat'

/** OpenCode's database: `opencode.db`, or `opencode-<channel>.db` for a build of another channel. */
const DB_NAME = /^opencode(-[A-Za-z0-9._-]+)?\.db$/

/** The databases in an OpenCode (or Kilo CLI: `kilo*.db`) data folder. */
export function databasesIn(dataDir: string): string[] {
  return names(dataDir)
    .filter((name) => (DB_NAME.test(name) || KILO_DB_NAME.test(name)) && statOrNull(join(dataDir, name))?.isFile() === true)
    .map((name) => join(dataDir, name))
}

/**
 * The storage folder of a data folder. Versions from 1.2.0 copy it into `opencode.db` once
 * (JsonMigration) and leave it behind; that copy is known to have been skipped or cut short
 * (sst/opencode#13654, #13636), so the folder is still read for the sessions the database lacks.
 */
export function storageFolderIn(dataDir: string): string | null {
  const storage = join(dataDir, 'storage')
  return hasSessionFile(join(storage, 'session')) ? storage : null
}

/** OpenCode's layout, not any `storage/session/` folder: `session/<project>/ses_<id>.json`. */
function hasSessionFile(sessions: string): boolean {
  return names(sessions).some((project) => names(join(sessions, project)).some((name) => name.startsWith('ses_') && name.endsWith('.json')))
}

/** Size and time of the database and its WAL (a running OpenCode grows the WAL first). */
export function databaseFingerprint(path: string): string {
  return [stamp(statOrNull(path)), stamp(statOrNull(`${path}-wal`))].join(':')
}

/**
 * Names, sizes and times of the session, message and part files: every write of OpenCode
 * changes one (it writes a whole file, renamed into place).
 */
export function storageFingerprint(storage: string): string {
  const hash = createHash('sha256')
  // Which of its sessions are read depends on the databases beside it.
  for (const db of databasesIn(dirname(storage))) hash.update(`${db}=${databaseFingerprint(db)}\n`)
  for (const kind of ['project', 'session', 'message', 'part']) {
    const top = join(storage, kind)
    const add = (dir: string, label: string) => {
      for (const name of names(dir)) if (name.endsWith('.json')) hash.update(`${label}${name}=${stamp(statOrNull(join(dir, name)))}\n`)
    }
    if (kind === 'project') add(top, 'project/')
    else for (const folder of names(top)) add(join(top, folder), `${kind}/${folder}/`)
  }
  return hash.digest('hex')
}

function stamp(stats: Stats | null): string {
  return stats ? `${stats.size}@${stats.mtimeMs}` : '-'
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}
