import { randomBytes } from 'node:crypto'
import { existsSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { RetraceError } from '../../../shared/contract'

/**
 * Write `text` as a file at `path`, which must not exist, all at once: the bytes go to a
 * temporary file beside it, then a hard link publishes them under the final name. A link,
 * unlike a rename, never replaces what is there: if the name was taken meanwhile it fails, so
 * no file of the agent's can be overwritten, even by a race. The temporary name is removed
 * either way; nothing else in the folder is touched (its missing parents are created).
 */
export function writeNewFile(path: string, text: string): void {
  if (existsSync(path)) throw new RetraceError('CONFLICT', `${path} already exists: Retrace writes only new files in an agent's folder.`)
  const folder = dirname(path)
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const temp = join(folder, `.${basename(path)}.retrace-${randomBytes(6).toString('hex')}.tmp`)
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600 })
    try {
      linkSync(temp, path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new RetraceError('CONFLICT', `${path} already exists: Retrace writes only new files in an agent's folder.`)
      throw error
    }
  } finally {
    rmSync(temp, { force: true })
  }
}
