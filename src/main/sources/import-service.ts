import { basename, isAbsolute } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { RetraceError, type ImportStatus } from '../../shared/contract'
import type { ChangeFeed } from '../events/change-feed'
import type { HistoryFile, SourceAdapter, SourceName } from './adapter'
import { DiscoveryCache } from './discovery-cache'
import { importParsedFile } from './file-importer'
import type { FileStat } from './file-stat'
import { ImportSettling } from './import-settling'
import { importOrder } from './import-order'
import { ReadAhead, THREAD_KEPT_FROM_BYTES, withoutUnchanged } from './read-ahead'
import { BatchCommitFailed, ImportBatch, yieldToEventLoop } from './import-batch'
import { followWorkspace } from './live-follow'
import { importSnapshotFile } from './snapshot-importer'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import { addReport, DEFAULT_IMPORT_TUNING, emptyReport, type ImportDeps, type ImportOptions, type ImportReport, type ImportTuning } from './import-deps'
import { discoverRecordedWorkspaces, groupByRecordedCwd, normalisedFolder, type FoundFile } from './recorded-workspaces'
import { filesByOwner, importedOffset } from './session-owners'
import { adaptersFor } from './registry'
import { filesInSourceFolder, onePlacePerSession, splitByWorkspace, spreadSourceFolder, type SpreadReport } from './source-folders'
import { applySourceTitles } from './source-titles'
import { markSourcesGone, type SourceGoneReport } from './source-gone'
import { ParseThreadStopped } from './parse-thread/parse-thread'
import { StoppedFiles } from './stopped-files'
import { BackgroundWork } from './background-work'
import { WatchedRecheck, type PlacedFile } from './watched-recheck'
import { everyFolderUnder } from './history-watch'

export interface WorkspaceImportReport extends ImportReport {
  workspaces: { id: number; path: string }[]
  /** Sessions not imported because their recorded folder is no folder path here (a relative one), and why. */
  refused: { cwd: string; reason: string; sessions: { source: string; sessionId: string; file: string }[] }[]
  /**
   * Sessions recorded in a folder that is never rewound (the home folder, `/root`, a system
   * folder): imported into a read-only workspace, browsable but never a rewind's target.
   */
  readOnly: { cwd: string; reason: string; workspaceId: number; sessions: number }[]
  /** Imported files found deleted by their agent (their sessions stay, marked), and marked ones found back. */
  sourcesGone: Omit<SourceGoneReport, 'workspaceIds'>
  /** Per source, the sessions whose files record no folder: --all cannot tell their workspace (Gemini CLI's hashed projects). */
  unplaced: { source: SourceName; sessions: number; files: string[] }[]
}

/** Workspaces followed live at once (the most recently opened ones). */
const MAX_WATCHED = 4
/** Skipped lines kept per workspace for `imports.status` (all of them are counted). */
const MAX_KEPT_SKIPPED = 1000

/** A workspace's import, as `imports.status` reports it, plus what cancels the running one. */
interface WorkspaceImports {
  state: ImportStatus['state']
  progress: { done: number; total: number; file: string } | null
  /** Summed over every import since the workspace was opened. */
  report: ImportReport | null
  skippedTotal: number
  /** File changes not journaled, all counted (the report keeps the first). */
  notJournaledTotal: number
  /** Files a cancelled import did not finish: live following leaves them for `imports.run`. */
  pending: Set<string>
  error: string | null
  finishedAt: number | null
  controller: AbortController | null
}

/** Thrown by an import that was cancelled (by `cancel` or by the caller's signal). */
export function importCancelled(): RetraceError {
  return new RetraceError('CANCELLED', 'The import was cancelled. What it read so far is kept; importing again continues from there.')
}

export function isImportCancelled(error: unknown): boolean {
  return error instanceof RetraceError && error.code === 'CANCELLED'
}

/**
 * Imports foreign histories into the store: for one workspace (when it is opened, then live
 * while it stays open) or for every workspace the sources know (`retrace import --all`).
 * Imports of one workspace never overlap: they are queued.
 */
export class ImportService {
  private readonly queues = new Map<number, Promise<unknown>>()
  private readonly watchers = new Map<number, () => void>()
  private readonly workspaces = new Map<number, WorkspaceImports>()
  /** Every import and follow check under way: `close` ends them and waits for them all. */
  private readonly work = new BackgroundWork()
  /** A running app's `import --all` reads what its watch of the agents' folders saw change (R75). */
  private readonly recheck: WatchedRecheck<WorkspaceImportReport>
  private lastRecheckKind: 'full' | 'watched' | null = null

  constructor(
    private readonly deps: ImportDeps & { feed?: ChangeFeed },
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** False for one-shot processes (CLI commands): nothing is followed live. */
    private readonly live = true,
    /** How imports are paced: the defaults, unless a test tunes them (runtime/tuning.ts). */
    private readonly tuning: ImportTuning = DEFAULT_IMPORT_TUNING,
    /** Files that stopped a parse thread, not read again until they change (the runtime keeps them in the data folder). */
    private readonly stoppedFiles = new StoppedFiles(null)
  ) {
    this.recheck = new WatchedRecheck(() => adaptersFor(undefined).flatMap((adapter) => adapter.watchFolders?.(this.env) ?? everyFolderUnder(adapter.roots(this.env))), tuning.recheck)
  }

  /** How the last `import --all` looked for news: a stat of every file, or the watched paths only. */
  get lastRecheck(): 'full' | 'watched' | null {
    return this.lastRecheckKind
  }

  /** The environment the sources' locations are read from (CLAUDE_CONFIG_DIR, CODEX_HOME…). */
  get environment(): NodeJS.ProcessEnv {
    return this.env
  }

  /** Import every history file of one workspace (only what was added since the last import). */
  importWorkspace(workspaceId: number, options: ImportOptions = {}): Promise<ImportReport> {
    const workspace = this.deps.store.workspaces.get(workspaceId)
    if (!workspace) return Promise.reject(new Error(`No workspace with id ${workspaceId}.`))
    const opened = { id: workspace.id, path: workspace.path }
    return this.queued(workspaceId, () =>
      this.discoverWorkspace(opened, options.sources, this.signalOf(options)).catch((error: unknown) => {
        throw this.work.isClosing ? importCancelled() : error
      })
    ).then((files) => this.importOwned(opened, files, options))
  }

  /**
   * Import what a workspace's discovery found, each session into the workspace that stores it
   * (session-owners.ts: its subfolders' sessions into their own workspaces, R59), each in its
   * workspace's queue. Outside the opened workspace's queue: two workspaces, each holding a
   * session the other found, must not wait for each other.
   */
  private async importOwned(opened: { id: number; path: string }, files: FoundFile[], options: ImportOptions): Promise<ImportReport> {
    const owned = filesByOwner(this.deps.store, this.env, opened, files)
    const total = emptyReport()
    // The opened workspace's own import always runs (its status says it ran), first.
    addReport(total, await this.queued(opened.id, () => this.importFiles(opened, owned.find((o) => o.workspace.id === opened.id)?.files ?? [], options)))
    for (const { workspace, files: theirs } of owned) {
      if (workspace.id === opened.id) continue
      const report = await this.queued(workspace.id, () => this.importFiles(workspace, theirs, options))
      addReport(total, report)
      // The opened workspace shows its subfolders' sessions: its lists change too.
      if (report.messages + report.sessions + report.fileChanges > 0) this.deps.feed?.changed(['sessions', 'messages', 'checkpoints'], { workspaceId: opened.id })
    }
    return total
  }

  /**
   * The history files of a workspace: what each source finds for its folder, and everything in
   * the folders the user added to it as a source's (`source_folders`). Each file once.
   */
  private async discoverWorkspace(workspace: { id: number; path: string }, only?: SourceName[], signal?: AbortSignal): Promise<{ adapter: SourceAdapter; file: HistoryFile }[]> {
    const own: { adapter: SourceAdapter; file: HistoryFile }[] = []
    const cache = this.discoveryCache()
    for (const adapter of adaptersFor(only)) {
      for (const file of await adapter.discover(workspace.path, adapter.roots(this.env), signal, cache)) own.push({ adapter, file })
    }
    cache.save()
    const places = [own]
    for (const folder of this.deps.store.sourceFolders.list(workspace.id)) {
      const adapter = adaptersFor(only).find((candidate) => candidate.name === folder.source)
      if (!adapter) continue
      // A folder that is gone (an unplugged disk) is skipped until it is back.
      const found = await filesInSourceFolder(adapter, folder.path, signal).catch(() => [])
      // Only this workspace's sessions: the folder's others went to their own workspaces when it was added.
      places.push(splitByWorkspace(found, workspace.path, folder.path).here.map((file) => ({ adapter, file })))
    }
    const importedHere = ({ adapter, file }: { adapter: SourceAdapter; file: HistoryFile }) => this.deps.store.importFiles.get(workspace.id, adapter.name, file.path) !== undefined
    const seen = new Set<string>()
    const found = onePlacePerSession(places, importedHere).filter(({ adapter, file }) => {
      const key = `${adapter.name}\0${file.path}`
      return !seen.has(key) && seen.add(key)
    })
    // A home or system folder holds every project below it: as a read-only workspace it shows the
    // sessions recorded in it, not theirs (each has its own workspace).
    return whyNotAWorkspaceFor(workspace.path, this.env) ? recordedExactlyIn(found, workspace.path) : found
  }

  private discovery: DiscoveryCache | null = null

  /** What discovery read of each file (kept for the importer's life: the store is read once). */
  /** What discovery read of each history file, shared by everything in this process that discovers. */
  discoveryCache(): DiscoveryCache {
    return (this.discovery ??= new DiscoveryCache(this.deps.store.discoveredFiles))
  }

  /**
   * A folder just added to `workspaceId` as `adapter`'s history: import the sessions it holds for
   * other folders into their own workspaces (the workspace's own import takes the rest).
   */
  spreadSourceFolder(workspaceId: number, adapter: SourceAdapter, folder: string, options: ImportOptions = {}): Promise<SpreadReport> {
    const workspace = this.deps.store.workspaces.get(workspaceId)
    if (!workspace) return Promise.reject(new Error(`No workspace with id ${workspaceId}.`))
    const importInto = async (target: { id: number; path: string }, files: HistoryFile[]) => {
      // The target's own copy of a session, already imported there, wins over the folder's (onePlacePerSession).
      const own = (await adapter.discover(target.path, adapter.roots(this.env), options.signal, this.discoveryCache())).map((file) => ({ adapter, file }))
      const chosen = onePlacePerSession([own, files.map((file) => ({ adapter, file }))], (found) => this.deps.store.importFiles.get(target.id, adapter.name, found.file.path) !== undefined)
      return this.queued(target.id, () => this.importFiles(target, chosen, options))
    }
    return this.tracked(`spreading ${folder}`, () => spreadSourceFolder({ store: this.deps.store, env: this.env, importInto }, workspace.path, adapter, folder, this.signalOf(options)))
  }

  /** Import every session found under the sources' roots, into a workspace per recorded cwd. */
  importAll(options: ImportOptions = {}): Promise<WorkspaceImportReport> {
    return this.tracked("importing every agent's history", () => this.importAllNow(options))
  }

  private async importAllNow(options: ImportOptions): Promise<WorkspaceImportReport> {
    // One-shot commands and a choice of sources look through everything (the watch is the app's, for every source).
    const recheck = this.live && options.sources === undefined && !this.work.isClosing ? this.recheck.begin([...this.deps.store.workspaceListing.hidden()].sort().join('\0')) : null
    if (recheck?.kind === 'watched') return this.importWatched(recheck.last, recheck.files, options)
    this.lastRecheckKind = 'full'
    const signal = this.signalOf(options)
    const cache = this.discoveryCache()
    const unplaced: FoundFile[] = []
    const byCwd = await discoverRecordedWorkspaces(this.env, options.sources, signal, cache, unplaced)
    cache.save()
    const total: WorkspaceImportReport = { ...emptyReport(), workspaces: [], refused: [], readOnly: [], sourcesGone: { marked: 0, cleared: 0 }, unplaced: unplacedBySource(unplaced) }
    const hidden = this.deps.store.workspaceListing.hidden()
    // Once one workspace's import parses on a thread, the smaller ones after it use it too.
    const parsing = { threaded: false }
    for (const [cwd, files] of [...byCwd.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      // A folder the user hid from the first screen (and maybe forgot) is not brought back.
      if (hidden.has(cwd)) continue
      // A recorded cwd is the history's word, not the user's choice: the home folder or `/`
      // as a workspace would let a rewind write anywhere in the account. Its sessions go into a
      // read-only workspace (record-writer.ts journals nothing there; rewind-service.ts refuses it).
      const refusal = whyNotAWorkspaceFor(cwd, this.env)
      if (refusal && !isAbsolute(cwd)) {
        total.refused.push({ cwd, reason: refusal, sessions: files.map(({ file }) => ({ source: file.source, sessionId: file.sessionId, file: file.path })) })
        continue
      }
      const workspaces = this.deps.store.workspaces
      const id = workspaces.getByPath(cwd)?.id ?? (options.markOpened === false || refusal ? workspaces.remember(cwd, basename(cwd) || cwd) : workspaces.open(cwd, basename(cwd) || cwd))
      if (refusal) total.readOnly.push({ cwd, reason: refusal, workspaceId: id, sessions: files.filter(({ file }) => file.role === 'main').length })
      else total.workspaces.push({ id, path: cwd })
      const report = await this.queued(id, () => this.importFiles({ id, path: cwd }, files, options, (path) => cache.statOf(path), parsing))
      addReport(total, report)
    }
    // Every root was discovered and imported: a file still missing now was deleted, not moved.
    if (signal.aborted) throw importCancelled()
    const found = new Set([...byCwd.values()].flatMap((files) => files.flatMap(({ file }) => [file.path, ...(file.segments?.pieces.map((piece) => piece.path) ?? [])])))
    const gone = markSourcesGone(this.deps.store, this.env, options.sources, Date.now(), found)
    total.sourcesGone = { marked: gone.marked, cleared: gone.cleared }
    for (const workspaceId of gone.workspaceIds) this.deps.feed?.changed(['sessions'], { workspaceId })
    recheck?.done(total, byCwd)
    return total
  }

  /** A re-check of the files the watch saw change, each into the workspace the last full pass put it in; the rest of the report is that pass's. */
  private async importWatched(last: WorkspaceImportReport, files: PlacedFile[], options: ImportOptions): Promise<WorkspaceImportReport> {
    this.lastRecheckKind = 'watched'
    const total: WorkspaceImportReport = { ...structuredClone(last), ...emptyReport(), sourcesGone: { marked: 0, cleared: 0 } }
    const byWorkspace = new Map<number, { workspace: { id: number; path: string }; files: FoundFile[] }>()
    for (const { workspace, found } of files) {
      const group = byWorkspace.get(workspace.id) ?? { workspace, files: [] }
      group.files.push(found)
      byWorkspace.set(workspace.id, group)
    }
    try {
      for (const { workspace, files: found } of byWorkspace.values()) addReport(total, await this.queued(workspace.id, () => this.importFiles(workspace, found, options)))
    } catch (error) {
      this.recheck.forget() // what it took from the watch is read by the full pass that follows
      throw error
    }
    return total
  }

  /**
   * Follow a workspace live: known files are checked for new bytes every 400 ms, and new files
   * looked for every 2 s, so a running agent's lines reach the open transcript within a second.
   * Returns the function that stops following it.
   */
  watch(workspaceId: number, onError: (error: unknown) => void = () => undefined): () => void {
    if (!this.live || this.work.isClosing) return () => undefined
    this.watchers.get(workspaceId)?.()
    // Opening a workspace starts its report afresh and takes up what a cancel left over.
    const entry = this.entry(workspaceId)
    entry.report = null
    entry.skippedTotal = 0
    entry.notJournaledTotal = 0
    entry.pending.clear()
    entry.error = null
    if (entry.state !== 'running') entry.state = 'idle'
    const stop = followWorkspace(
      {
        workspace: () => this.deps.store.workspaces.get(workspaceId),
        discover: async (workspace) => (await this.discoverWorkspace(workspace)).map(({ file }) => file),
        importStep: async (workspace, files, options) => {
          try {
            await this.importOwned(workspace, files.map((file) => ({ adapter: adapterOf(file), file })), options)
          } catch (error) {
            // A cancel stops this step's import, not the following.
            if (!isImportCancelled(error)) throw error
          }
        },
        pending: () => this.entry(workspaceId).pending,
        importedOffset: (file) => importedOffset(this.deps.store, workspaceId, file),
        track: (check) => this.work.track(`following workspace ${workspaceId}`, check)
      },
      this.tuning.incompleteLineAfterMs,
      (error) => {
        this.work.failed(`following workspace ${workspaceId}`, error)
        onError(error)
      },
      () => {
        if (this.watchers.get(workspaceId) === stop) this.watchers.delete(workspaceId)
      }
    )
    this.watchers.set(workspaceId, stop)
    while (this.watchers.size > MAX_WATCHED) {
      const [oldest] = this.watchers.keys()
      if (oldest === undefined) break
      this.watchers.get(oldest)?.()
    }
    return stop
  }

  /**
   * Stop following every workspace and cancel every import (the runtime is closing); resolves
   * once none of them is under way any more, so the store can be closed under nothing. What
   * each import committed stays; the next process continues from there.
   */
  async close(): Promise<void> {
    this.work.beginClose()
    this.recheck.close()
    for (const stop of [...this.watchers.values()]) stop()
    for (const entry of this.workspaces.values()) entry.controller?.abort()
    await this.work.settled()
  }

  /** What is under way now ("importing workspace 2", "following workspace 2"…); empty once `close` has resolved. */
  workUnderWay(): string[] {
    return this.work.describe()
  }

  /** Failures of background work after `close` began: work that outlived the store it needed. Empty unless something is wrong. */
  closeProblems(): string[] {
    return this.work.problems()
  }

  /**
   * Abort the workspace's running import. Committed chunks stay (the next import of a file
   * continues from its saved offset); the files it did not finish are left for `imports.run`
   * (or reopening the workspace), while live following goes on for the others. False when no
   * import was running.
   */
  cancel(workspaceId: number): boolean {
    const controller = this.workspaces.get(workspaceId)?.controller
    if (!controller || controller.signal.aborted) return false
    controller.abort()
    return true
  }

  /** Everything imported into the workspace since it was opened, or null before its first import. */
  lastReport(workspaceId: number): ImportReport | null {
    const report = this.workspaces.get(workspaceId)?.report
    return report ? { ...report, skipped: [...report.skipped], changesNotJournaled: [...report.changesNotJournaled] } : null
  }

  status(workspaceId: number): ImportStatus {
    const entry = this.workspaces.get(workspaceId)
    return {
      workspaceId,
      state: entry?.state ?? 'idle',
      progress: entry?.progress ? { ...entry.progress } : null,
      report: this.lastReport(workspaceId),
      skippedTotal: entry?.skippedTotal ?? 0,
      notJournaledTotal: entry?.notJournaledTotal ?? 0,
      pendingFiles: entry?.pending.size ?? 0,
      error: entry?.error ?? null,
      finishedAt: entry?.finishedAt ?? null
    }
  }

  private entry(workspaceId: number): WorkspaceImports {
    let entry = this.workspaces.get(workspaceId)
    if (!entry) {
      entry = { state: 'idle', progress: null, report: null, skippedTotal: 0, notJournaledTotal: 0, pending: new Set(), error: null, finishedAt: null, controller: null }
      this.workspaces.set(workspaceId, entry)
    }
    return entry
  }

  /**
   * The write-ahead log is folded back when the store is idle (wal-checkpoints.ts); an import
   * keeps it busy, so only the log's size bound checkpoints meanwhile.
   */
  private importFiles(
    workspace: { id: number; path: string },
    files: { adapter: SourceAdapter; file: HistoryFile }[],
    options: ImportOptions,
    statOf?: (path: string) => FileStat | undefined,
    parsing?: { threaded: boolean }
  ): Promise<ImportReport> {
    return this.deps.store.walCheckpoints.deferWhile(() => this.importFilesNow(workspace, files, options, statOf, parsing))
  }

  private async importFilesNow(
    workspace: { id: number; path: string; readOnly?: string },
    files: { adapter: SourceAdapter; file: HistoryFile }[],
    options: ImportOptions,
    statOf?: (path: string) => FileStat | undefined,
    /** Of a larger import (importAll): whether its earlier workspaces parsed on a thread, which this one then keeps using. */
    parsing?: { threaded: boolean }
  ): Promise<ImportReport> {
    const readOnly = whyNotAWorkspaceFor(workspace.path, this.env)
    if (readOnly) workspace = { ...workspace, readOnly }
    const entry = this.entry(workspace.id)
    const controller = new AbortController()
    const signal = AbortSignal.any([this.signalOf(options), controller.signal])
    const report = emptyReport()
    const left = withoutUnchanged(this.deps, workspace.id, this.withoutStopped(workspace.id, files, report, statOf), (path) => options.onFileDone?.(path), statOf)
    const ordered = importOrder(left.entries)
    const unfinished = new Set(ordered.map(({ file }) => file.path))
    entry.controller = controller
    if (ordered.length > 0) {
      entry.state = 'running'
      entry.error = null
    }
    let done = 0
    const batch = new ImportBatch(this.deps.store)
    const settling = new ImportSettling()
    const deps: ImportDeps = { ...this.deps, settle: settling }
    const reading = new ReadAhead(deps, workspace, ordered, batch, left.bytesToRead, this.tuning.parseHeapMb, this.tuning.largeLineThreadsExit, parsing?.threaded ? THREAD_KEPT_FROM_BYTES : undefined)
    if (parsing && reading.threaded) parsing.threaded = true
    // Messages are indexed for search in bulk once the import ends (search-index.ts).
    if (ordered.length > 0) this.deps.store.searchIndex.defer()
    try {
      for (const [index, { adapter, file }] of ordered.entries()) {
        signal.throwIfAborted()
        this.progress(workspace.id, options, { done, total: ordered.length, file: file.path })
        // Reading is synchronous: a cancel (or any request) gets in between files and chunks.
        await (this.tuning.fileDelayMs > 0 ? sleep(this.tuning.fileDelayMs, undefined, { signal }) : yieldToEventLoop())
        signal.throwIfAborted()
        try {
          if (adapter.kind === 'snapshot') {
            batch.commit() // a snapshot commits its own sessions: what came before goes first
            await importSnapshotFile(deps, adapter, workspace, file, report, { signal })
          } else {
            const { plan, chunks } = reading.take(index)
            if (plan) await importParsedFile(deps, workspace, plan, chunks, report, batch, { signal, reportIncompleteLine: options.reportIncompleteLines ?? !this.live })
          }
        } catch (error) {
          if (signal.aborted || error instanceof BatchCommitFailed) throw error
          if (error instanceof ParseThreadStopped) this.stoppedFiles.remember(file.path, error.why)
          // One unreadable file must not stop the others; it is reported like a skipped line.
          report.skipped.push({ file: file.path, offset: 0, reason: `file not imported: ${error instanceof Error ? error.message : String(error)}` })
        }
        done += 1
        // A file counts as imported once its last lines are committed.
        batch.whenCommitted(() => {
          unfinished.delete(file.path)
          entry.pending.delete(file.path)
          options.onFileDone?.(file.path)
        })
      }
      batch.commit()
      const retitled = applySourceTitles(this.deps.store, workspace.id, files.map(({ file }) => file))
      // Copies an enclosing folder's workspace holds of these sessions (stored there before R59) go.
      for (const id of this.deps.store.sessionFolds.foldEnclosingCopies(workspace.id)) this.deps.feed?.changed(['sessions', 'messages', 'checkpoints'], { workspaceId: id })
      if (settling.settle(this.deps, report) || retitled) this.deps.feed?.changed(['sessions'], { workspaceId: workspace.id })
      await this.catchUpSearchIndex()
      this.progress(workspace.id, options, { done, total: ordered.length, file: '' })
      this.finish(workspace.id, report, { done, total: ordered.length }, 'done', null)
      return report
    } catch (error) {
      const cancelled = signal.aborted
      // What was read before the cancel is kept: its chunks are whole, each with its file's offset.
      if (cancelled && !(error instanceof BatchCommitFailed)) {
        batch.commit()
        settling.settle(this.deps, report)
      }
      await this.catchUpSearchIndex().catch(() => undefined) // the next import catches up
      if (cancelled) for (const path of unfinished) entry.pending.add(path)
      this.finish(workspace.id, report, { done, total: ordered.length }, cancelled ? 'cancelled' : 'failed', cancelled ? null : error instanceof Error ? error.message : String(error))
      throw cancelled ? importCancelled() : error
    } finally {
      reading.close()
      if (entry.controller === controller) entry.controller = null
    }
  }

  /** The files to import but those that stopped a parse thread and have not changed since: each is reported instead. */
  private withoutStopped(workspaceId: number, files: { adapter: SourceAdapter; file: HistoryFile }[], report: ImportReport, statOf?: (path: string) => FileStat | undefined): { adapter: SourceAdapter; file: HistoryFile }[] {
    return files.filter(({ adapter, file }) => {
      const why = adapter.kind === 'snapshot' ? null : this.stoppedFiles.notReadAgain(file.path, statOf?.(file.path))
      if (why) report.skipped.push({ file: file.path, offset: this.deps.store.importFiles.get(workspaceId, file.source, file.path)?.offset ?? 0, reason: why })
      return why === null
    })
  }

  /** Index what imports left waiting, a step at a time so requests get in between. */
  private async catchUpSearchIndex(): Promise<void> {
    while (!this.deps.store.searchIndex.catchUpStep()) await yieldToEventLoop()
  }

  /** Add one import's report to the workspace's, tell renderers what changed, and that it ended. */
  private finish(workspaceId: number, report: ImportReport, { done, total }: { done: number; total: number }, outcome: 'done' | 'cancelled' | 'failed', error: string | null): void {
    const entry = this.entry(workspaceId)
    entry.progress = null
    const sum = (entry.report ??= emptyReport())
    sum.files += report.files
    sum.sessions += report.sessions
    sum.messages += report.messages
    sum.toolCalls += report.toolCalls
    sum.fileChanges += report.fileChanges
    sum.skipped.push(...report.skipped.slice(0, Math.max(0, MAX_KEPT_SKIPPED - sum.skipped.length)))
    entry.skippedTotal += report.skipped.length
    sum.changesNotJournaled.push(...report.changesNotJournaled.slice(0, Math.max(0, MAX_KEPT_SKIPPED - sum.changesNotJournaled.length)))
    entry.notJournaledTotal += report.changesNotJournaled.length
    if (report.messages + report.sessions + report.fileChanges > 0) this.deps.feed?.changed(['sessions', 'messages', 'checkpoints', 'files', 'workspaces'], { workspaceId })
    if (total === 0 && outcome === 'done') return
    entry.state = outcome
    entry.error = error
    entry.finishedAt = Date.now()
    this.deps.feed?.publish({
      name: 'import.finished',
      payload: { workspaceId, outcome, done, total, files: report.files, sessions: report.sessions, messages: report.messages, skipped: report.skipped.length, pendingFiles: entry.pending.size }
    })
  }

  private progress(workspaceId: number, options: ImportOptions, progress: { done: number; total: number; file: string }): void {
    options.onProgress?.(progress)
    if (progress.total === 0) return
    this.entry(workspaceId).progress = progress
    this.deps.feed?.publish({ name: 'import.progress', payload: { workspaceId, ...progress } })
  }

  private queued<T>(workspaceId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workspaceId) ?? Promise.resolve()
    // Work queued before a close starts after it: it is cancelled, not begun.
    const run = () => (this.work.isClosing ? Promise.reject(importCancelled()) : work())
    const next = this.work.track(`importing workspace ${workspaceId}`, previous.then(run, run))
    this.queues.set(workspaceId, next.catch(() => undefined))
    return next
  }

  /** Run `work` as part of what `close` waits for; refused (cancelled) once closing. */
  private tracked<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (this.work.isClosing) return Promise.reject(importCancelled())
    // Discovery stopped by the close throws the platform's AbortError: it is a cancel like any other.
    return this.work.track(
      what,
      work().catch((error: unknown) => {
        throw this.work.isClosing ? importCancelled() : error
      })
    )
  }

  /** The caller's signal, if any, and the importer's own close. */
  private signalOf(options: ImportOptions): AbortSignal {
    return options.signal ? AbortSignal.any([options.signal, this.work.signal]) : this.work.signal
  }
}

function adapterOf(file: HistoryFile): SourceAdapter {
  const [adapter] = adaptersFor(file.source)
  if (!adapter) throw new Error(`No importer for ${file.source}.`)
  return adapter
}

/** The sessions (their main files; sub-agents go with them) that record no folder, by source. */
function unplacedBySource(found: readonly FoundFile[]): WorkspaceImportReport['unplaced'] {
  const bySource = new Map<SourceName, string[]>()
  for (const { adapter, file } of found) {
    if (file.role !== 'main') continue
    bySource.set(adapter.name, [...(bySource.get(adapter.name) ?? []), file.path])
  }
  return [...bySource].map(([source, files]) => ({ source, sessions: files.length, files: files.sort() }))
}

/** The files whose session recorded exactly this folder (a sub-agent goes with its session). */
function recordedExactlyIn<T extends { file: HistoryFile }>(found: T[], folder: string): T[] {
  const here = new Set(groupByRecordedCwd(found.map(({ file }) => file)).get(normalisedFolder(folder)) ?? [])
  return found.filter(({ file }) => here.has(file))
}
