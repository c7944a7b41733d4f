import type { EventPayload, ImportStatus } from '../../../../shared/contract'
import { plural } from '../../lib/format'

export function idleStatus(workspaceId: number): ImportStatus {
  return { workspaceId, state: 'idle', progress: null, report: null, skippedTotal: 0, notJournaledTotal: 0, pendingFiles: 0, error: null, finishedAt: null }
}

/**
 * A pushed `import.progress` applied to the cached status, so the bar moves without a request.
 * The final event of a run (every file done) leaves the state to the `import.finished` that follows.
 */
export function withProgress(status: ImportStatus | undefined, progress: EventPayload<'import.progress'>): ImportStatus {
  const base = status ?? idleStatus(progress.workspaceId)
  const { done, total, file } = progress
  if (done >= total) return { ...base, progress: null }
  return { ...base, state: 'running', progress: { done, total, file } }
}

/** What the workspace header says about the import. */
export type ImportView =
  | { kind: 'hidden' }
  | { kind: 'running'; label: string; done: number; total: number; file: string }
  | { kind: 'summary'; label: string; detail: string; skipped: number; skippedShown: number; notJournaled: number; pendingFiles: number; cancelled: boolean }
  | { kind: 'failed'; label: string; error: string; pendingFiles: number }

export function importView(status: ImportStatus | undefined): ImportView {
  if (!status) return { kind: 'hidden' }
  if (status.state === 'running' && status.progress) {
    const { done, total, file } = status.progress
    return { kind: 'running', label: `Importing agent histories… ${done} of ${plural(total, 'file')}`, done, total, file }
  }
  if (status.state === 'failed') return { kind: 'failed', label: 'Import failed', error: status.error ?? 'The import stopped.', pendingFiles: status.pendingFiles }
  const report = status.report
  if (!report) return { kind: 'hidden' }
  return {
    kind: 'summary',
    label: summaryLabel(report),
    detail: `Since this workspace was opened: ${plural(report.files, 'history file')} read, ${plural(report.sessions, 'new session')}, ${plural(report.messages, 'message')}, ${plural(report.toolCalls, 'tool call')}, ${plural(report.fileChanges, 'file change')}.`,
    skipped: status.skippedTotal,
    skippedShown: report.skipped.length,
    // Changes whose lines were imported: counted apart, never as skipped lines.
    notJournaled: status.notJournaledTotal,
    pendingFiles: status.pendingFiles,
    cancelled: status.state === 'cancelled' || status.pendingFiles > 0
  }
}

/** "Imported 4 sessions, 310 messages"; "Imported 12 messages"; "Agent histories up to date". */
export function summaryLabel(report: { sessions: number; messages: number }): string {
  if (report.sessions > 0) return `Imported ${plural(report.sessions, 'session')}, ${plural(report.messages, 'message')}`
  if (report.messages > 0) return `Imported ${plural(report.messages, 'message')}`
  return 'Agent histories up to date'
}
