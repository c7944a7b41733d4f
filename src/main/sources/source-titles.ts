import type { Store } from '../store/store'
import type { HistoryFile } from './adapter'

/**
 * Titles a source keeps outside a session's own file (Codex `session_index.jsonl`), which
 * discovery puts on the file: given to the imported main sessions they name, at the end of each
 * import. A rename touches no session file, so the file's own import would not see it. Sub-agent
 * files take theirs when their session is made (imported-sessions.ts). True when one changed.
 */
export function applySourceTitles(store: Store, workspaceId: number, files: readonly HistoryFile[]): boolean {
  let changed = false
  for (const file of files) {
    if (file.role !== 'main' || !file.title) continue
    const session = store.sessions.bySourceId(workspaceId, file.source, file.sessionId)
    if (!session || session.title === file.title) continue
    store.sessions.setTitle(session.rowId, file.title)
    changed = true
  }
  return changed
}
