import { existsSync } from 'node:fs'
import type { FoundFile } from './recorded-workspaces'
import type { WatchedFolder } from './adapter'
import { HistoryWatch } from './history-watch'
import type { WatchedRecheckTuning } from './import-deps'

/** What a full pass's report says of where files went (import-service.ts's WorkspaceImportReport). */
interface Placement {
  workspaces: { id: number; path: string }[]
  readOnly: { cwd: string; workspaceId: number }[]
}

/** The re-check to run: a full pass, or only `files` (each with the workspace the last full pass put it in). */
export type Recheck<R extends Placement> = { kind: 'full'; done: (report: R, byCwd: ReadonlyMap<string, FoundFile[]>) => void } | { kind: 'watched'; files: PlacedFile[]; last: R }

export interface PlacedFile {
  workspace: { id: number; path: string }
  found: FoundFile
}

interface FullPass<R> {
  at: number
  key: string
  report: R
  byPath: Map<string, PlacedFile>
}

/**
 * A running app's `import --all` re-check (R75): what the watch saw change since the last round,
 * when every such path is a file the last full pass placed, is read alone (the stat of 50,000
 * files that finds nothing is skipped); anything else is a full pass: the first round, a new
 * or deleted file or folder, a failed watch, other sources asked for, other hidden workspaces,
 * and every FULL_PASS_EVERY_MS all the same.
 */
export class WatchedRecheck<R extends Placement> {
  private watch: HistoryWatch | null = null
  private last: FullPass<R> | null = null

  constructor(
    private readonly folders: () => WatchedFolder[],
    private readonly tuning: WatchedRecheckTuning,
    private readonly now: () => number = Date.now
  ) {}

  /** `key` says what else the round depends on (the hidden workspaces); a round of another key is full. */
  begin(key: string): Recheck<R> {
    const stale = this.last !== null && this.now() - this.last.at >= this.tuning.fullPassEveryMs
    // A failed watch is replaced, and so is each one at the periodic full pass (what a watch may have lost, a new one finds).
    if (this.watch?.failed || stale) this.close()
    // Watching starts before the full pass that follows, so nothing written during it is missed.
    this.watch ??= new HistoryWatch(this.folders(), this.tuning.watchFolder)
    const changes = this.watch.take()
    const last = this.last
    const fresh = last !== null && last.key === key && this.now() - last.at < this.tuning.fullPassEveryMs
    const files = fresh && !changes.everything ? placedFiles(last, changes.paths) : null
    if (last !== null && files !== null) return { kind: 'watched', files, last: last.report }
    this.last = null
    const startedAt = this.now()
    return {
      kind: 'full',
      done: (report, byCwd) => {
        this.last = { at: startedAt, key, report: structuredClone(report), byPath: placedByPath(report, byCwd) }
      }
    }
  }

  /** A watched round that failed: what it took from the watch is read by a full pass next. */
  forget(): void {
    this.last = null
  }

  close(): void {
    this.watch?.close()
    this.watch = null
    this.last = null
  }
}

/** The files behind `paths`, once each; null when one is not a file the last pass placed (new, gone, a folder). */
function placedFiles<R>(last: FullPass<R>, paths: ReadonlySet<string>): PlacedFile[] | null {
  const files = new Set<PlacedFile>()
  for (const path of paths) {
    const placed = last.byPath.get(path)
    if (placed === undefined || !existsSync(path)) return null
    files.add(placed)
  }
  return [...files]
}

/** Every file (and earlier segment) of the workspaces a full pass imported into, by path. */
function placedByPath(report: Placement, byCwd: ReadonlyMap<string, FoundFile[]>): Map<string, PlacedFile> {
  const byPath = new Map<string, PlacedFile>()
  const workspaces = [...report.workspaces, ...report.readOnly.map(({ cwd, workspaceId }) => ({ id: workspaceId, path: cwd }))]
  for (const workspace of workspaces) {
    for (const found of byCwd.get(workspace.path) ?? []) {
      const placed = { workspace: { id: workspace.id, path: workspace.path }, found }
      byPath.set(found.file.path, placed)
      for (const piece of found.file.segments?.pieces ?? []) byPath.set(piece.path, placed)
    }
  }
  return byPath
}
