import { statSync } from 'node:fs'
import type { ChangeFeed } from '../events/change-feed'
import type { RecordedFile } from '../store/repositories/recorded-files'
import { importedKey, recordedKey } from '../store/repositories/recorded-files'
import type { Store } from '../store/store'
import type { HistoryFile, SourceAdapter } from './adapter'
import type { DiscoveryCache } from './discovery-cache'
import type { FileStat } from './file-stat'
import { lastActivityOf, modifiedAt } from './last-activity'
import { discoverRecordedWorkspaces } from './recorded-workspaces'

const BULK_LOOKUP_FROM = 500

/**
 * The index of what the agents' histories record (`recorded_files`): which workspace each history
 * file's session goes to and when it was last written to. The first screen lists from it at
 * once; a refresh, in the background, stats every file, reads only those whose size or time
 * changed (discovery's heads from its cache, a tail only where no import already holds the
 * file's last activity), and tells the change feed when anything moved. One per runtime.
 */
export class RecordedIndex {
  private refreshing: Promise<boolean> | null = null
  private readonly closing = new AbortController()

  constructor(
    private readonly deps: { store: Store; feed: ChangeFeed; discovery: () => DiscoveryCache },
    private readonly env: NodeJS.ProcessEnv,
    /** How long a refresh stands: a listing asked for later starts another (runtime/tuning.ts). */
    private readonly freshForMs: number
  ) {}

  /** Whether a refresh ended within the last `freshForMs` (by any process on this store). */
  isFresh(now = Date.now()): boolean {
    const refreshedAt = this.deps.store.recordedFiles.refreshedAt()
    return refreshedAt !== null && now - refreshedAt < this.freshForMs
  }

  /** Whether a refresh is under way (the window says it is still looking). */
  isRefreshing(): boolean {
    return this.refreshing !== null
  }

  /** Start a refresh unless the index is fresh or one is under way; one that fails leaves the index as it was, for the next listing to try again. */
  refreshInBackground(): void {
    if (this.refreshing || this.isFresh()) return
    void this.refresh().catch(() => undefined)
  }

  /**
   * Bring the index up to date with every history file; one refresh at a time (a caller during
   * one waits for it). Resolves whether anything changed; the feed hears of it as `workspaces`.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.afterThisTurn().then(() => this.refreshNow(this.closing.signal)).finally(() => (this.refreshing = null))
    return this.refreshing
  }

  /** Loading the discovery cache (a row per history file) is synchronous: a listing that started a refresh answers first. */
  private afterThisTurn(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve))
  }

  /** Stop a refresh under way (the runtime is closing): it writes nothing. Resolves once it stopped. */
  async close(): Promise<void> {
    this.closing.abort()
    await this.refreshing?.catch(() => undefined)
  }

  private async refreshNow(signal: AbortSignal): Promise<boolean> {
    const cache = this.deps.discovery()
    const byCwd = await discoverRecordedWorkspaces(this.env, undefined, signal, cache)
    cache.save()
    signal.throwIfAborted()
    const { recordedFiles } = this.deps.store
    const firstEver = recordedFiles.refreshedAt() === null
    const known = recordedFiles.all()
    const changed: RecordedFile[] = []
    const candidates: { adapter: SourceAdapter; file: HistoryFile; cwd: string; signature: string; before: RecordedFile | undefined; stat: FileStat | undefined }[] = []
    for (const [cwd, found] of byCwd) {
      for (const { adapter, file } of found) {
        const key = recordedKey({ source: file.source, path: file.path, cwd })
        const before = known.get(key)
        known.delete(key)
        const stat = cache.statOf(file.path) ?? statOf(file.path)
        const signature = file.fingerprint ?? (stat ? `${stat.size}:${stat.mtimeMs}` : 'gone')
        if (before?.signature === signature && file.lastActivityAt === undefined) continue
        candidates.push({ adapter, file, cwd, signature, before, stat })
      }
    }
    // One query for every imported file's activity beats a lookup each past a few hundred.
    const imported = candidates.length > BULK_LOOKUP_FROM ? recordedFiles.importedActivities() : undefined
    for (const { adapter, file, cwd, signature, before, stat } of candidates) {
      const lastActivityAt = this.activityOf(adapter, file, stat, imported)
      if (before?.signature === signature && before.lastActivityAt === lastActivityAt) continue
      changed.push({ source: file.source, path: file.path, cwd, signature, lastActivityAt })
    }
    const gone = [...known.values()]
    signal.throwIfAborted()
    recordedFiles.apply(changed, gone, Date.now())
    const moved = changed.length > 0 || gone.length > 0
    // The first refresh is announced even when it found nothing: a window said it was looking.
    if (moved || firstEver) this.deps.feed.changed(['workspaces'])
    return moved
  }

  /** When a file was last written to: what its source says, what an import stored, else its tail. */
  private activityOf(adapter: SourceAdapter, file: HistoryFile, stat: FileStat | undefined, imported: Map<string, number> | undefined): number | null {
    if (file.lastActivityAt !== undefined) return file.lastActivityAt
    if (adapter.kind === 'snapshot') return stat ? Math.trunc(stat.mtimeMs) : modifiedAt(file.path)
    const lookup = (size: number, mtimeMs: number) =>
      imported ? (imported.get(importedKey(file.source, file.path, size, mtimeMs)) ?? null) : this.deps.store.recordedFiles.importedActivity(file.source, file.path, size, mtimeMs)
    const stored = stat ? lookup(stat.size, stat.mtimeMs) : null
    return stored ?? lastActivityOf(file.path)
  }
}

function statOf(path: string): FileStat | undefined {
  try {
    const { dev, ino, size, mtimeMs } = statSync(path)
    return { dev, ino, size, mtimeMs }
  } catch {
    return undefined
  }
}
