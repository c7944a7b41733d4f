import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { RetentionStatus } from '../../../../shared/contract'
import { call } from '../../api/client'
import { plural } from '../../lib/format'
import { retentionKeys } from '../../state/query-keys'
import { ClaudeRetentionChange, LONGER_DAYS } from './ClaudeRetentionChange'

const DISMISSED_KEY = 'retrace.retentionNoticeDismissed'

/**
 * A small notice when an agent deletes its own history by age (Claude Code, after
 * `cleanupPeriodDays`) or already deleted sessions Retrace kept: Retrace keeps what it imported,
 * and imports every agent's history in the background so that is everything. Dismissed, it stays
 * away until what it says changes (another retention, more sessions deleted).
 */
export function RetentionNotice({ usesClaudeCode }: { usesClaudeCode: boolean }) {
  const status = useQuery({ queryKey: retentionKeys.status, queryFn: () => call('retention.status', {}) })
  const [dismissed, setDismissed] = useState(readDismissed)
  const text = status.data ? noticeText(status.data, usesClaudeCode) : null
  if (!text || !status.data || dismissed === text) return null
  const dismiss = () => {
    saveDismissed(text)
    setDismissed(text)
  }
  return (
    <section className="retention-notice" role="status" data-testid="retention-notice" aria-label="Agent history retention">
      <span className="retention-notice-text">{text}</span>
      <ClaudeRetentionChange status={status.data} />
      <button type="button" className="button small ghost" data-testid="retention-notice-dismiss" onClick={dismiss}>
        Dismiss
      </button>
    </section>
  )
}

/** What the notice says, or null when there is nothing to say. */
export function noticeText(status: RetentionStatus, usesClaudeCode: boolean): string | null {
  const claude = status.agents.find((agent) => agent.source === 'claude-code')
  const deleted = status.deleted.find((entry) => entry.source === 'claude-code')?.sessions ?? 0
  const others = status.deleted.filter((entry) => entry.source !== 'claude-code')
  const parts: string[] = []
  // A retention of a year or more is not worth a notice, unless Retrace set it (its undo is here).
  const short = claude?.deletesAfterDays != null && (claude.deletesAfterDays < LONGER_DAYS || status.claudeChange !== null)
  if (claude && claude.deletesAfterDays !== null && ((usesClaudeCode && short) || deleted > 0)) {
    parts.push(
      `Claude Code deletes sessions after ${plural(claude.deletesAfterDays, 'day')}; Retrace keeps what it imported` +
        (deleted > 0 ? ` (${plural(deleted, 'session')} already deleted by Claude Code).` : '.')
    )
  } else if (deleted > 0) {
    parts.push(`Retrace keeps ${plural(deleted, 'session')} Claude Code deleted.`)
  }
  for (const entry of others) parts.push(`Retrace keeps ${plural(entry.sessions, 'session')} ${entry.label} deleted.`)
  return parts.length > 0 ? parts.join(' ') : null
}

function readDismissed(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY)
  } catch {
    return null
  }
}

function saveDismissed(text: string): void {
  try {
    localStorage.setItem(DISMISSED_KEY, text)
  } catch {
    // Not remembered: dismissed until the window closes.
  }
}
