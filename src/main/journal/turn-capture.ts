import { RetraceError } from '../../shared/contract'
import type { Store } from '../store/store'
import type { FileJournal } from './file-journal'
import type { FileVersion } from '../store/repositories/journal'
import { keyOf, type PathKey } from '../fs/paths'
import { diffScans, type FileChange } from './scan/diff'
import { scanWorkspace, warmScanWorker, type ScanOptions } from './scan/scan'
import type { ScannedFile, ScanResult } from './scan/types'

type ScanControls = Pick<ScanOptions, 'limits' | 'signal' | 'onProgress' | 'workerPath' | 'deflateWorkerPath'>

const versionOf = (file: ScannedFile | undefined): FileVersion | null =>
  file ? { kind: file.kind, hash: file.hash, size: file.size, mode: file.mode } : null

/**
 * Shell-change capture around a turn: a scan before it (the baseline, kept as the workspace's
 * file states) and a scan after it; every difference is journaled in the turn's scope as seen
 * by a workspace scan, so `rm`, `mv` and code generators are caught like tool writes.
 */
export class TurnCapture {
  constructor(
    private readonly store: Store,
    private readonly journal: FileJournal
  ) {}

  /**
   * Scan before the turn. The result becomes the baseline the end of the turn compares with.
   * Both scans defer the store's idle WAL checkpoints (an agent's hook waits for them, and a
   * checkpoint landing inside a capture would lengthen it by tens of milliseconds).
   */
  async begin(workspaceId: number, controls: ScanControls = {}): Promise<ScanResult> {
    return this.store.walCheckpoints.deferWhile(() => this.scan(workspaceId, controls))
  }

  /** Scan after the turn and journal what changed since the baseline. */
  async end(workspaceId: number, scope: { sessionRowId: number; turn: number }, controls: ScanControls = {}): Promise<{ scan: ScanResult; changes: FileChange[] }> {
    return this.store.walCheckpoints.deferWhile(() => this.scanAndJournal(workspaceId, scope, controls))
  }

  private async scanAndJournal(workspaceId: number, scope: { sessionRowId: number; turn: number }, controls: ScanControls): Promise<{ scan: ScanResult; changes: FileChange[] }> {
    warmScanWorker(controls.workerPath) // its start-up overlaps loading the baseline
    const baseline = this.store.fileStates.load(workspaceId)
    const scan = await this.scan(workspaceId, controls, baseline)
    const changes = diffScans(baseline, scan.files).filter((change) => seenBothTimes(change, scan))
    const scopeId = this.journal.turnScope(workspaceId, scope.sessionRowId, scope.turn)
    const alreadyByTool = this.toolResults(scopeId)
    this.store.transaction(() => {
      for (const change of changes) {
        const after = versionOf(change.after)
        if (alreadyByTool.get(keyOf(change.path)) === (after ? after.hash : null)) continue
        this.journal.repo.addEntry({
          scopeId,
          op: change.op,
          path: change.path,
          fromPath: change.fromPath ?? null,
          before: versionOf(change.before),
          after,
          observed: 'scan'
        })
      }
    })
    return { scan, changes }
  }

  private scan(workspaceId: number, controls: ScanControls, previous?: Map<PathKey, ScannedFile>): Promise<ScanResult> {
    const workspace = this.store.workspaces.get(workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
    return scanWorkspace({ root: workspace.path, workspaceId, store: this.store, blobs: this.journal.blobs, ...controls, ...(previous ? { previous } : {}) })
  }

  /** Paths a tool already journaled in this turn, with the hash it left (null: deleted). */
  private toolResults(scopeId: number): Map<PathKey, string | null> {
    const results = new Map<PathKey, string | null>()
    for (const entry of this.journal.repo.entriesOfScope(scopeId)) results.set(keyOf(entry.path), entry.after?.hash ?? null)
    return results
  }
}

/**
 * A path the scan skipped (unreadable, too large) or never reached (file limit) is unknown, not
 * deleted: recording it as a deletion would make a rewind "restore" over the user's file.
 */
function seenBothTimes(change: FileChange, scan: ScanResult): boolean {
  const unknown = (path: Buffer | undefined) => {
    if (!path) return false
    const text = path.toString('latin1')
    return scan.skipped.some((skip) => skip.key === text || (skip.folder && text.startsWith(`${skip.key}/`)))
  }
  if (unknown(change.path) || unknown(change.fromPath)) return false
  if (scan.truncated && (change.op === 'delete' || change.op === 'rename')) return false
  return true
}
