import { createHash } from 'node:crypto'
import { existsSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { readConfigFile } from '../../fs/config-file.mts'
import { setTopLevelKey } from './json-text-edit'
import { CLEANUP_KEY, claudeUserSettingsFile } from './retention-settings'

/** Where, in Retrace's data folder, the changes not undone yet are remembered. */
export const RETENTION_CHANGES_FILE = 'claude-retention-changes.json'

/** One change Retrace made to Claude Code's settings, and what undoing it needs. */
export interface RetentionChange {
  /** The settings file written (a link followed to its target). */
  file: string
  /** The copy of the file as it was, beside it; null when there was no file. */
  backup: string | null
  before: number | null
  after: number
  /** sha256 of what Retrace wrote: undo refuses if the file is not that any more. */
  writtenSha256: string
  at: number
}

/**
 * Write `cleanupPeriodDays` into Claude Code's user settings, changing nothing else in the file
 * (json-text-edit.ts), after copying the file beside itself (`settings.json.retrace-backup-<time>`).
 * The change is remembered in `undoFile` (in Retrace's data folder) for `undoClaudeRetention`.
 * The caller has the user's consent: this writes a file of the agent's.
 */
export function setClaudeRetention(env: NodeJS.ProcessEnv, days: number, undoFile: string, now = Date.now()): RetentionChange {
  if (!Number.isInteger(days) || days < 1) throw new Error(`Days must be a whole number of at least 1, not ${days} (0 would stop Claude Code keeping transcripts at all).`)
  const file = settingsTarget(claudeUserSettingsFile(env))
  const original = readConfigFile(file)
  const text = original ? original.toString('utf8') : '{}\n'
  const before = readDays(text)
  const edited = setTopLevelKey(text, CLEANUP_KEY, days)
  let backup: string | null = null
  if (original) {
    backup = join(dirname(file), `${basename(file)}.retrace-backup-${new Date(now).toISOString().replace(/[:.]/g, '-')}`)
    writeFileSync(backup, original, { flag: 'wx', mode: statSync(file).mode & 0o777 })
  }
  replaceFile(file, Buffer.from(edited, 'utf8'))
  const change: RetentionChange = { file, backup, before, after: days, writtenSha256: sha256(Buffer.from(edited, 'utf8')), at: now }
  writeFileSync(undoFile, JSON.stringify([...readChanges(undoFile), change], null, 2))
  return change
}

/**
 * Put the settings file back exactly as it was before Retrace's last change (byte for byte, or
 * no file if there was none). Refused when the file changed since Retrace wrote it: Claude Code
 * or the user wrote it, and putting the old one back would undo their change too.
 */
export function undoClaudeRetention(undoFile: string): RetentionChange {
  const changes = readChanges(undoFile)
  const change = changes.at(-1)
  if (!change) throw new Error('Retrace has not changed Claude Code\'s settings (or has undone every change): nothing to undo.')
  const current = readConfigFile(change.file)
  if (!current || sha256(current) !== change.writtenSha256) {
    const where = change.backup ? ` The file as it was before is kept at ${change.backup}.` : ''
    throw new Error(`${change.file} changed since Retrace wrote it (${new Date(change.at).toISOString()}): not undone, so that change is not lost.${where}`)
  }
  if (change.backup) replaceFile(change.file, readFileSync(change.backup))
  else unlinkSync(change.file)
  writeFileSync(undoFile, JSON.stringify(changes.slice(0, -1), null, 2))
  return change
}

/** The changes not undone yet, oldest first. */
export function readChanges(undoFile: string): RetentionChange[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(undoFile, 'utf8'))
    return Array.isArray(parsed) ? (parsed as RetentionChange[]) : []
  } catch {
    return []
  }
}

/** A settings file kept elsewhere through a link (a dotfiles repository) is written where it lives. */
function settingsTarget(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Write beside, then rename over: the file is never seen half-written. Its mode is kept. */
function replaceFile(file: string, content: Buffer): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o600
  const temp = join(dirname(file), `.${basename(file)}.retrace-${process.pid}`)
  writeFileSync(temp, content, { mode })
  renameSync(temp, file)
}

function readDays(text: string): number | null {
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)[CLEANUP_KEY]
    return typeof value === 'number' ? value : null
  } catch {
    return null
  }
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
