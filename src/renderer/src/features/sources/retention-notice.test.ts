import { describe, expect, it } from 'vitest'
import type { RetentionStatus } from '../../../../shared/contract'
import { noticeText } from './RetentionNotice'

const claude = (days: number | null): RetentionStatus['agents'][number] => ({ source: 'claude-code', label: 'Claude Code', deletesAfterDays: days, origin: 'default', settingsFile: '/h/.claude/settings.json', note: '', problems: [] })
const codex: RetentionStatus['agents'][number] = { source: 'codex', label: 'Codex CLI', deletesAfterDays: null, origin: 'agent-behaviour', settingsFile: null, note: '', problems: [] }

describe('the retention notice', () => {
  it('says Claude Code deletes by age and how many sessions it already deleted', () => {
    const status: RetentionStatus = { agents: [claude(30), codex], deleted: [{ source: 'claude-code', label: 'Claude Code', sessions: 12, firstFoundAt: 1 }], claudeChange: null }
    expect(noticeText(status, true)).toBe('Claude Code deletes sessions after 30 days; Retrace keeps what it imported (12 sessions already deleted by Claude Code).')
  })

  it('says it for a workspace with Claude Code sessions even before any was deleted, and not for others', () => {
    const status: RetentionStatus = { agents: [claude(30), codex], deleted: [], claudeChange: null }
    expect(noticeText(status, true)).toBe('Claude Code deletes sessions after 30 days; Retrace keeps what it imported.')
    expect(noticeText(status, false)).toBeNull()
  })

  it('says nothing of a retention of a year or more, unless Retrace set it (its undo is in the notice)', () => {
    expect(noticeText({ agents: [claude(400), codex], deleted: [], claudeChange: null }, true)).toBeNull()
    const change = { file: '/h/.claude/settings.json', backup: null, before: null, after: 400, at: 1 }
    expect(noticeText({ agents: [claude(400), codex], deleted: [], claudeChange: change }, true)).toBe('Claude Code deletes sessions after 400 days; Retrace keeps what it imported.')
  })

  it('names other agents whose deleted sessions Retrace kept', () => {
    const status: RetentionStatus = { agents: [claude(30), codex], deleted: [{ source: 'codex', label: 'Codex CLI', sessions: 1, firstFoundAt: 1 }], claudeChange: null }
    expect(noticeText(status, false)).toBe('Retrace keeps 1 session Codex CLI deleted.')
  })
})
