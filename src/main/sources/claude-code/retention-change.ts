import { createHash } from 'node:crypto'
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { readConfigFile } from '../../fs/config-file.mts'
import { backupConfigFile, ConfigFileChanged, configFileTarget, removeConfigFile, replaceConfigFile } from '../../fs/config-file-write'
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

/** How many times the settings are read and edited again when someone writes them meanwhile. */
const WRITE_ATTEMPTS = 3

/**
 * Write `cleanupPeriodDays` into Claude Code's user settings, changing nothing else in the file
 * (json-text-edit.ts), after copying the file beside itself (`settings.json.retrace-backup-<time>`).
 * A link is followed to the file it names (a link to nothing is refused, not replaced), and the
 * file is replaced only if nobody wrote it since it was read: else it is read and edited again,
 * and after a few tries refused (fs/config-file-write.ts). `whileWriting`: see replaceConfigFile.
 * The change is remembered in `undoFile` (in Retrace's data folder) for `undoClaudeRetention`.
 * The caller has the user's consent: this writes a file of the agent's.
 */
export function setClaudeRetention(env: NodeJS.ProcessEnv, days: number, undoFile: string, now = Date.now(), whileWriting?: (file: string) => void): RetentionChange {
  if (!Number.isInteger(days) || days < 1) throw new Error(`Days must be a whole number of at least 1, not ${days} (0 would stop Claude Code keeping transcripts at all).`)
  const file = configFileTarget(claudeUserSettingsFile(env))
  for (let attempt = 1; ; attempt++) {
    const original = readConfigFile(file)
    // An empty (or blank) file holds no settings yet: edited as `{}`, and undo gives back its bytes.
    const text = original && original.toString('utf8').trim() !== '' ? original.toString('utf8') : '{}\n'
    const before = readDays(text)
    const edited = Buffer.from(setTopLevelKey(text, CLEANUP_KEY, days), 'utf8')
    const backup = original ? backupConfigFile(file, original, now) : null
    try {
      replaceConfigFile(file, edited, original, whileWriting)
    } catch (error) {
      if (backup) unlinkSync(backup)
      if (error instanceof ConfigFileChanged && attempt < WRITE_ATTEMPTS) continue
      throw error
    }
    const change: RetentionChange = { file, backup, before, after: days, writtenSha256: sha256(edited), at: now }
    writeFileSync(undoFile, JSON.stringify([...readChanges(undoFile), change], null, 2))
    return change
  }
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
  if (change.backup) {
    const original = readConfigFile(change.backup)
    if (original === null) throw new Error(`The copy of ${change.file} as it was, ${change.backup}, is gone: not undone.`)
    replaceConfigFile(change.file, original, current)
  } else removeConfigFile(change.file, current)
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
