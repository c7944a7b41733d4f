import { describe, expect, it } from 'vitest'
import type { ImportStatus } from '../../../../shared/contract'
import { idleStatus, importView, summaryLabel, withProgress } from './import-model'

const report = { files: 3, sessions: 4, messages: 310, toolCalls: 20, fileChanges: 2, skipped: [{ file: '/a.jsonl', offset: 10, reason: 'not JSON' }], changesNotJournaled: [{ file: '/a.jsonl', offset: 90, reason: 'file change not captured (its earlier content is unknown): a.ts' }], unread: [] }
const done: ImportStatus = { ...idleStatus(1), state: 'done', report, skippedTotal: 12, notJournaledTotal: 3, finishedAt: 5 }

describe('the workspace import status', () => {
  it('moves the bar from pushed progress, leaving the end to import.finished', () => {
    const running = withProgress(undefined, { workspaceId: 1, done: 3, total: 12, file: '/x.jsonl' })
    expect(running).toMatchObject({ state: 'running', progress: { done: 3, total: 12 } })
    expect(importView(running)).toMatchObject({ kind: 'running', label: 'Importing agent histories… 3 of 12 files' })
    // A following step keeps the earlier report under its bar.
    expect(withProgress(done, { workspaceId: 1, done: 0, total: 1, file: '/x' })).toMatchObject({ state: 'running', report })
    expect(withProgress(running, { workspaceId: 1, done: 12, total: 12, file: '' }).progress).toBeNull()
  })

  it('sums up what was imported, the skipped lines and what a cancel left', () => {
    expect(importView(done)).toMatchObject({ kind: 'summary', label: 'Imported 4 sessions, 310 messages', skipped: 12, skippedShown: 1, notJournaled: 3, cancelled: false })
    expect(importView({ ...done, state: 'cancelled', pendingFiles: 9 })).toMatchObject({ kind: 'summary', pendingFiles: 9, cancelled: true })
    expect(importView(idleStatus(1))).toEqual({ kind: 'hidden' })
    expect(importView({ ...done, state: 'failed', error: 'disk gone' })).toMatchObject({ kind: 'failed', error: 'disk gone' })
  })

  it('words the summary by what there is', () => {
    expect(summaryLabel({ sessions: 1, messages: 1 })).toBe('Imported 1 session, 1 message')
    expect(summaryLabel({ sessions: 0, messages: 12 })).toBe('Imported 12 messages')
    expect(summaryLabel({ sessions: 0, messages: 0 })).toBe('Agent histories up to date')
  })
})
