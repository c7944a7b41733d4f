import type { HistoryFile } from './adapter'
import { readImportState } from './import-state'
import { RecordWriter } from './record-writer'
import type { ImportDeps, ImportReport, SettleLater } from './import-deps'
import { SuccessorLinks } from './successor-links'

/**
 * What an import settles once all of it is in. It writes the newest sessions first (so a window
 * opening a large history has the latest work at once), so a session can come before one it
 * refers to: a successor before the session it continues (successor-links.ts), a summary before
 * the earlier session it names (summary-titles.ts).
 */
export class ImportSettling implements SettleLater {
  readonly successors = new SuccessorLinks()
  private readonly summaryFiles = new Map<string, { workspace: { id: number; path: string }; file: HistoryFile }>()

  /** A file whose summaries wait for their session: tried again at the end. */
  summariesWaiting(workspace: { id: number; path: string }, file: HistoryFile): void {
    this.summaryFiles.set(`${workspace.id}\0${file.source}\0${file.path}`, { workspace, file })
  }

  /** Link successors and apply (or report) waiting summaries; true if sessions changed. */
  settle(deps: ImportDeps, report: ImportReport): boolean {
    const { store } = deps
    const linked = this.successors.link(store)
    const files = [...this.summaryFiles.values()]
    this.summaryFiles.clear()
    const imports = store.importFiles
    store.transaction(() => {
      for (const { workspace, file } of files) {
        const row = imports.get(workspace.id, file.source, file.path)
        if (!row) continue
        const state = readImportState(row.importState)
        new RecordWriter({ ...deps, settle: undefined }, workspace, file, state, report).settleSummaries()
        imports.saveState(row.id, state)
      }
    })
    return linked || files.length > 0
  }
}
