import { RetraceError } from '../../shared/contract'
import type { Runtime } from '../runtime/runtime'
import type { CliCall } from './call'
import type { Output } from './commands'
import { deletedSessionsSection } from './doctor/deleted-sessions-section'
import { retentionSection } from './doctor/retention-section'
import type { DoctorCheck } from './doctor/section'
import { unreadSection } from './doctor/unread-section'

/** The doctor's sections, in the order printed. */
const SECTIONS: DoctorCheck[] = [retentionSection, deletedSessionsSection, unreadSection]

/** `retrace doctor [--json]`: what Retrace can tell about keeping the agents' history, and reading it whole. */
export async function doctorCommand(runtime: Runtime, call: CliCall, options: { json: boolean; io: Output }): Promise<void> {
  const sections = []
  for (const check of SECTIONS) sections.push(await check({ runtime, call }))
  if (options.json) return options.io.out(JSON.stringify(Object.fromEntries(sections.map((section) => [section.key, section.json])), null, 2))
  options.io.out(sections.map((section) => [`${section.title}`, ...section.lines.map((line) => `  ${line}`)].join('\n')).join('\n\n'))
}

/**
 * `retrace doctor --set-claude-retention DAYS [--yes]`: write `cleanupPeriodDays` into Claude
 * Code's user settings, only with the user's consent (a question answered yes, or --yes).
 */
export async function setClaudeRetentionCommand(
  call: CliCall,
  options: { days: number; yes: boolean; json: boolean; io: Output; confirm: (question: string) => Promise<boolean | null> }
): Promise<number> {
  const { days } = options
  const claude = (await call('retention.status', {})).agents.find((agent) => agent.source === 'claude-code')
  if (claude?.origin === 'managed-settings') throw new RetraceError('VALIDATION', "Claude Code's retention is set by your organisation's managed settings, which win over yours: Retrace does not change it.")
  const question = `Write "cleanupPeriodDays": ${days} into ${claude?.settingsFile ?? ''} (now ${claude?.deletesAfterDays ?? '?'} days, ${claude?.origin === 'default' ? 'its default' : 'set there'})? A backup is kept beside it. [y/N] `
  const answer = options.yes || (await options.confirm(question))
  if (answer === null) {
    // Like a rewind nobody could confirm: exit 2, nothing done.
    options.io.err(`retrace: Not a terminal, so nobody can be asked: nothing changed. Pass --yes to write cleanupPeriodDays: ${days}.`)
    return 2
  }
  if (!answer) {
    options.io.err('Nothing changed. (Answer y, or add --yes.)')
    return 1
  }
  const change = await call('retention.setClaude', { days })
  if (options.json) options.io.out(JSON.stringify(change, null, 2))
  else options.io.out(`Claude Code now keeps sessions ${days} days (${change.file}).${change.backup ? ` Backup: ${change.backup}.` : ''} Undo: retrace doctor --undo-claude-retention`)
  return 0
}

/** `retrace doctor --undo-claude-retention`: put the settings file back exactly as it was. */
export async function undoClaudeRetentionCommand(call: CliCall, options: { json: boolean; io: Output }): Promise<number> {
  const change = await call('retention.undoClaude', {})
  if (options.json) options.io.out(JSON.stringify({ undone: change }, null, 2))
  else options.io.out(change.backup ? `${change.file} is back as it was before ${new Date(change.at).toISOString()}.` : `${change.file} removed: there was none before Retrace wrote it.`)
  return 0
}
