import { join } from 'node:path'
import { ConfigFileRefused, readConfigText } from '../../fs/config-file.mts'
import { claudeRoots } from './discover'

/** Claude Code deletes a session's transcript this many days after its last activity unless told otherwise. */
export const CLAUDE_DEFAULT_CLEANUP_DAYS = 30
export const CLEANUP_KEY = 'cleanupPeriodDays'

export interface ClaudeRetention {
  /** Days after a session's last activity when Claude Code deletes its transcript (at its next start). */
  days: number
  /** Where that comes from: Claude Code's default, the user's settings, or settings an organisation manages (which win). */
  origin: 'default' | 'user-settings' | 'managed-settings'
  /** The user's settings file (CLAUDE_CONFIG_DIR, else ~/.claude): the one `retention set` edits. */
  userSettingsFile: string
  /** The managed settings file whose value applies, when one does (Retrace never edits it). */
  managedSettingsFile: string | null
  /** Settings files that could not be read as JSON, or a value that is not a number of days. */
  problems: string[]
}

/** The user's Claude Code settings: `settings.json` in its config folder. */
export function claudeUserSettingsFile(env: NodeJS.ProcessEnv): string {
  return join(claudeRoots(env)[0] as string, 'settings.json')
}

/** Where an organisation's managed settings live on this platform (they take precedence over the user's). */
export function managedSettingsFiles(platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'darwin') return ['/Library/Application Support/ClaudeCode/managed-settings.json']
  if (platform === 'win32') return ['C:\\Program Files\\ClaudeCode\\managed-settings.json', 'C:\\ProgramData\\ClaudeCode\\managed-settings.json']
  return ['/etc/claude-code/managed-settings.json']
}

/**
 * How long Claude Code keeps sessions here: `cleanupPeriodDays` from managed settings, else from
 * the user's settings, else its default of 30 days. Project settings (`.claude/settings.json` in
 * a repository) may set it too, for Claude Code started there; they are not read.
 */
export function readClaudeRetention(env: NodeJS.ProcessEnv, managedFiles: string[] = managedSettingsFiles()): ClaudeRetention {
  const userSettingsFile = claudeUserSettingsFile(env)
  const problems: string[] = []
  for (const file of managedFiles) {
    const days = cleanupDaysIn(file, problems)
    if (days !== undefined) return { days, origin: 'managed-settings', userSettingsFile, managedSettingsFile: file, problems }
  }
  const days = cleanupDaysIn(userSettingsFile, problems)
  if (days !== undefined) return { days, origin: 'user-settings', userSettingsFile, managedSettingsFile: null, problems }
  return { days: CLAUDE_DEFAULT_CLEANUP_DAYS, origin: 'default', userSettingsFile, managedSettingsFile: null, problems }
}

/** The file's `cleanupPeriodDays`, or undefined when the file or the key is absent (or unreadable: said in `problems`). */
function cleanupDaysIn(file: string, problems: string[]): number | undefined {
  let text: string | null
  try {
    text = readConfigText(file)
  } catch (error) {
    problems.push(error instanceof ConfigFileRefused ? error.message : `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
    return undefined
  }
  if (text === null) return undefined
  let settings: unknown
  try {
    settings = JSON.parse(text)
  } catch {
    problems.push(`${file}: not valid JSON (Claude Code may ignore it)`)
    return undefined
  }
  if (!settings || typeof settings !== 'object' || !(CLEANUP_KEY in settings)) return undefined
  const value = (settings as Record<string, unknown>)[CLEANUP_KEY]
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  problems.push(`${file}: ${CLEANUP_KEY} is ${JSON.stringify(value)}, not a whole number of days`)
  return undefined
}
