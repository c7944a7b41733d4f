import type { RetentionStatus } from '../../shared/contract'
import type { Store } from '../store/store'
import { join } from 'node:path'
import { readClaudeRetention } from './claude-code/retention-settings'
import { readChanges, RETENTION_CHANGES_FILE } from './claude-code/retention-change'
import { SOURCE_ADAPTERS } from './registry'

/**
 * What the agents do with their own history over time, and what Retrace kept that they deleted.
 * Claude Code deletes sessions after `cleanupPeriodDays` (30 by default). Codex CLI deletes
 * nothing by age: it compresses idle rollouts to `.jsonl.zst` and `codex archive` moves them to
 * `archived_sessions/` (codex-rs/rollout: compression.rs, and no retention setting in its config).
 */
export function retentionStatus(store: Store, env: NodeJS.ProcessEnv, managedFiles?: string[]): RetentionStatus {
  const last = readChanges(join(store.dataDir, RETENTION_CHANGES_FILE)).at(-1)
  const claude = readClaudeRetention(env, managedFiles)
  const from = claude.origin === 'default' ? 'its default' : claude.origin === 'user-settings' ? claude.userSettingsFile : `${claude.managedSettingsFile ?? ''} (managed by your organisation)`
  const claudeNote =
    claude.days === 0
      ? `cleanupPeriodDays is 0 (${from}): recent Claude Code versions then keep no transcripts at all.`
      : `Claude Code deletes a session ${claude.days} days after its last activity (${from}), at its next start.`
  const label = (source: string) => SOURCE_ADAPTERS.find((adapter) => adapter.name === source)?.label ?? source
  return {
    agents: [
      { source: 'claude-code', label: 'Claude Code', deletesAfterDays: claude.days, origin: claude.origin, settingsFile: claude.origin === 'managed-settings' ? null : claude.userSettingsFile, note: claudeNote, problems: claude.problems },
      {
        source: 'codex',
        label: 'Codex CLI',
        deletesAfterDays: null,
        origin: 'agent-behaviour',
        settingsFile: null,
        note: 'Codex CLI deletes nothing by age: it compresses idle rollouts (.jsonl.zst), and `codex archive` moves them to archived_sessions/.',
        problems: []
      }
    ],
    deleted: store.importFiles.goneSessionCounts().map(({ source, sessions, firstGoneAt }) => ({ source, label: label(source), sessions, firstFoundAt: firstGoneAt })),
    claudeChange: last ? { file: last.file, backup: last.backup, before: last.before, after: last.after, at: last.at } : null
  }
}
