import type { HistoryFile } from './adapter'
import { readImportState, TITLE_RANK, type FileImportState } from './import-state'
import type { ImportDeps, ImportReport } from './import-deps'

/** Summaries of one file kept waiting for their session; beyond this, the oldest are dropped. */
const MAX_WAITING = 100

/**
 * Titles that name their session by one of its messages (Claude Code `summary` lines, by
 * `leafUuid`). Claude Code writes them at the top of a new session's file about earlier sessions,
 * so a summary usually titles another file's session; a file may hold nothing but summaries (a
 * session opened and left without a prompt). A summary whose message is not imported yet waits
 * for it in this file's later lines (an old `--resume` copied the history below its summaries);
 * it is reported in the import summary when first read unresolved, so it never vanishes silently.
 */
export class SummaryTitles {
  /** Read in the current chunk. */
  private fresh: FileImportState['summaries'] = []

  constructor(
    private readonly deps: ImportDeps,
    private readonly workspace: { id: number },
    private readonly file: HistoryFile,
    private readonly state: FileImportState,
    private readonly report: ImportReport,
    /** Give this file's own session a title (with the rank rules of its own titles). */
    private readonly titleOwn: (title: string) => void
  ) {}

  add(summary: { leafUid: string; title: string; offset: number }): void {
    this.fresh.push({ ...summary, reported: false })
  }

  /**
   * Apply every summary whose session is now imported (end of a chunk). One still unresolved is
   * reported, unless the import settles its summaries once all of it is in (`settle`): it writes
   * the newest sessions first, and a summary names an earlier session.
   */
  resolve(): void {
    this.resolveWaiting(!this.deps.settle)
  }

  /** The import is all in: apply what can be, and report the summaries still unresolved. */
  settle(): void {
    this.resolveWaiting(true)
  }

  private resolveWaiting(report: boolean): void {
    const waiting: FileImportState['summaries'] = []
    for (const summary of [...this.state.summaries, ...this.fresh]) {
      if (this.apply(summary)) continue
      waiting.push(summary)
      if (report && !summary.reported) {
        summary.reported = true
        this.report.skipped.push({
          file: this.file.path,
          offset: summary.offset,
          reason: `summary "${summary.title}" names message ${summary.leafUid}, which no imported session holds: the session it summarised is not in this folder's history (its file is gone?); the summary is applied if that message appears later in this file`
        })
      }
    }
    this.state.summaries = waiting.slice(-MAX_WAITING)
    this.fresh = []
  }

  /** Summaries of this file wait for their session. */
  get waiting(): boolean {
    return this.state.summaries.length > 0
  }

  private apply(summary: { leafUid: string; title: string }): boolean {
    const { store } = this.deps
    const own = this.state.sessionUid ? store.sessions.get(this.state.sessionUid) : undefined
    if (own && store.messages.bySourceUid(own.rowId, summary.leafUid)) {
      this.titleOwn(summary.title)
      return true
    }
    const uid = store.sessionLinks.sessionHolding(this.workspace.id, this.file.source, summary.leafUid)
    const target = uid ? store.sessions.get(uid) : undefined
    if (!target) return false
    const imports = store.importFiles
    const row = imports.stateOfSession(target.rowId)
    if (!row) {
      if (target.title.trim() === '') store.sessions.setTitle(target.rowId, summary.title)
      return true
    }
    // The target file's own titles rank as usual against this one: a custom title stays.
    const targetState = readImportState(row.importState)
    if (TITLE_RANK.summary >= targetState.titleRank) {
      targetState.title = summary.title
      targetState.titleRank = TITLE_RANK.summary
      imports.saveState(row.id, targetState)
      store.sessions.setTitle(target.rowId, summary.title)
    }
    return true
  }
}
