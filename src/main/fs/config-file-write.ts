import { lstatSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { ConfigFileRefused, readConfigFile } from './config-file.mts'

/**
 * Writing an agent's settings file (`retrace hooks install`, the Claude Code retention setting):
 * where a link leads, never over the link; by a temp file renamed over the real file; and only
 * if nobody wrote the file since Retrace read it — the agent or the person may be saving it at
 * the same moment, and their change must not be lost under Retrace's.
 */

/** Someone else wrote the file between Retrace's read and its write: nothing was written. */
export class ConfigFileChanged extends ConfigFileRefused {}

/**
 * The file to write for the settings at `path`: a link is followed to the file it names (a
 * dotfiles repository stays the place); a missing file is `path` itself. A link to nothing is
 * refused: replacing it would silently cut the user's file out of their dotfiles.
 */
export function configFileTarget(path: string): string {
  try {
    return realpathSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return path
  }
  let link: string | null = null
  try {
    if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path)
  } catch {
    return path // nothing there, not even a link
  }
  if (link === null) return path
  throw new ConfigFileRefused(path, `${path} is a link to ${resolve(dirname(path), link)}, which does not exist: Retrace does not replace the link. Create the file it points to (or remove the link), then try again.`)
}

/** Copy the file as it was beside it (`<name>.retrace-backup-<time>`, same mode); returns the copy's path. */
export function backupConfigFile(file: string, bytes: Buffer, now = Date.now()): string {
  const mode = statSync(file).mode & 0o777
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-')
  for (let attempt = 1; ; attempt++) {
    const backup = join(dirname(file), `${basename(file)}.retrace-backup-${stamp}${attempt > 1 ? `-${attempt}` : ''}`)
    try {
      writeFileSync(backup, bytes, { flag: 'wx', mode })
      return backup
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 100) throw error
    }
  }
}

let temps = 0

/**
 * Replace `file` with `content`, provided it still holds `expected` (null: there was no file).
 * The new content is written beside the file, the file is read again and compared just before
 * the rename, so a change someone made since Retrace read it is never overwritten: it throws
 * ConfigFileChanged instead (the caller reads again and retries, or says so). The mode is kept
 * (0600 for a new file). `whileWriting` runs after the temp file is written, before the check:
 * where a concurrent writer would land (tests).
 */
export function replaceConfigFile(file: string, content: Buffer | string, expected: Buffer | null, whileWriting?: (file: string) => void): void {
  const mode = expected === null ? 0o600 : statSync(file).mode & 0o777
  const temp = join(dirname(file), `.${basename(file)}.retrace-${process.pid}-${++temps}`)
  writeFileSync(temp, content, { flag: 'wx', mode })
  try {
    whileWriting?.(file)
    refuseIfChanged(file, expected)
    renameSync(temp, file)
  } catch (error) {
    unlinkSync(temp)
    throw error
  }
}

/** Remove `file` (one Retrace created and emptied again), provided it still holds `expected`. */
export function removeConfigFile(file: string, expected: Buffer): void {
  refuseIfChanged(file, expected)
  unlinkSync(file)
}

function refuseIfChanged(file: string, expected: Buffer | null): void {
  const now = readConfigFile(file)
  if (now === null && expected === null) return
  if (now !== null && expected !== null && now.equals(expected)) return
  throw new ConfigFileChanged(file, `${file} was changed by someone else while Retrace was editing it: Retrace wrote nothing, so that change is kept. Try again.`)
}
