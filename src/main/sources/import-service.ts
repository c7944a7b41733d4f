import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { ChangeFeed } from '../events/change-feed'
import type { HistoryFile, SourceAdapter, SourceName } from './adapter'
import { importHistoryFile } from './file-importer'
import { emptyReport, type ImportDeps, type ImportReport } from './record-writer'
import { adaptersFor } from './registry'

export interface ImportOptions {
  sources?: SourceName[]
  signal?: AbortSignal
  /** Files done of files found, with the one being read. */
  onProgress?: (progress: { done: number; total: number; file: string }) => void
}

export interface WorkspaceImportReport extends ImportReport {
  workspaces: { id: number; path: string }[]
}

/** How often an open workspace's history files are checked for new lines. */
const WATCH_INTERVAL_MS = 400
/** New files (a session just started) are looked for less often than known files grow. */
const REDISCOVER_EVERY = 5
/** Workspaces followed live at once (the most recently opened ones). */
const MAX_WATCHED = 4

/**
 * Imports foreign histories into the store: for one workspace (when it is opened, then live
 * while it stays open) or for every workspace the sources know (`retrace import --all`).
 * Imports of one workspace never overlap: they are queued.
 */
export class ImportService {
  private readonly queues = new Map<number, Promise<unknown>>()
  private readonly watchers = new Map<number, () => void>()

  constructor(
    private readonly deps: ImportDeps & { feed?: ChangeFeed },
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** False for one-shot processes (CLI commands): nothing is followed live. */
    private readonly live = true
  ) {}

  /** Import every history file of one workspace (only what was added since the last import). */
  importWorkspace(workspaceId: number, options: ImportOptions = {}): Promise<ImportReport> {
    const workspace = this.deps.store.workspaces.get(workspaceId)
    if (!workspace) return Promise.reject(new Error(`No workspace with id ${workspaceId}.`))
    return this.queued(workspaceId, async () => {
      const files: { adapter: SourceAdapter; file: HistoryFile }[] = []
      for (const adapter of adaptersFor(options.sources)) {
        for (const file of await adapter.discover(workspace.path, adapter.roots(this.env), options.signal)) files.push({ adapter, file })
      }
      return this.importFiles({ id: workspace.id, path: workspace.path }, files, options)
    })
  }

  /** Import every session found under the sources' roots, into a workspace per recorded cwd. */
  async importAll(options: ImportOptions = {}): Promise<WorkspaceImportReport> {
    const byCwd = new Map<string, { adapter: SourceAdapter; file: HistoryFile }[]>()
    for (const adapter of adaptersFor(options.sources)) {
      const files = await adapter.discoverAll(adapter.roots(this.env), options.signal)
      const cwdOfSession = new Map(files.filter((f) => f.role === 'main' && f.cwd).map((f) => [f.sessionId, f.cwd as string]))
      for (const file of files) {
        const cwd = file.role === 'sub-agent' ? (cwdOfSession.get(file.parentSessionId ?? '') ?? file.cwd) : file.cwd
        if (!cwd) continue
        const list = byCwd.get(cwd) ?? []
        list.push({ adapter, file })
        byCwd.set(cwd, list)
      }
    }
    const total: WorkspaceImportReport = { ...emptyReport(), workspaces: [] }
    for (const [cwd, files] of [...byCwd.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const id = this.deps.store.workspaces.getByPath(cwd)?.id ?? this.deps.store.workspaces.open(cwd, basename(cwd) || cwd)
      total.workspaces.push({ id, path: cwd })
      const report = await this.queued(id, () => this.importFiles({ id, path: cwd }, files, options))
      addReport(total, report)
    }
    return total
  }

  /**
   * Follow a workspace live: known files are checked for new bytes every 400 ms, and new files
   * looked for every 2 s, so a running agent's lines reach the open transcript within a second.
   * Returns the function that stops following it.
   */
  watch(workspaceId: number, onError: (error: unknown) => void = () => undefined): () => void {
    if (!this.live) return () => undefined
    this.watchers.get(workspaceId)?.()
    const sizes = new Map<string, number>()
    const imported = new Map<string, number>()
    let tick = 0
    let stopped = false
    let files: HistoryFile[] = []
    const check = async () => {
      const workspace = this.deps.store.workspaces.get(workspaceId)
      if (!workspace) return stop()
      if (tick % REDISCOVER_EVERY === 0) {
        files = []
        for (const adapter of adaptersFor()) files.push(...(await adapter.discover(workspace.path, adapter.roots(this.env))))
      }
      tick += 1
      let grown = false
      for (const file of files) {
        const size = await stat(file.path).then((s) => s.size, () => -1)
        if (imported.get(file.path) !== size) grown = true
        sizes.set(file.path, size)
      }
      if (grown) {
        const changed = files.filter((file) => sizes.get(file.path) !== imported.get(file.path))
        await this.queued(workspaceId, () => this.importFiles({ id: workspace.id, path: workspace.path }, changed.map((file) => ({ adapter: adapterOf(file), file })), {}))
        for (const file of changed) imported.set(file.path, sizes.get(file.path) ?? -1)
      }
    }
    const loop = () => {
      if (stopped) return
      check()
        .catch(onError)
        .finally(() => {
          if (!stopped) timer = setTimeout(loop, WATCH_INTERVAL_MS).unref()
        })
    }
    let timer: NodeJS.Timeout = setTimeout(loop, 0).unref()
    const stop = () => {
      stopped = true
      clearTimeout(timer)
      if (this.watchers.get(workspaceId) === stop) this.watchers.delete(workspaceId)
    }
    this.watchers.set(workspaceId, stop)
    while (this.watchers.size > MAX_WATCHED) {
      const [oldest] = this.watchers.keys()
      if (oldest === undefined) break
      this.watchers.get(oldest)?.()
    }
    return stop
  }

  /** Stop following every workspace (the runtime is closing). */
  close(): void {
    for (const stop of [...this.watchers.values()]) stop()
  }

  private async importFiles(workspace: { id: number; path: string }, files: { adapter: SourceAdapter; file: HistoryFile }[], options: ImportOptions): Promise<ImportReport> {
    const report = emptyReport()
    const ordered = importOrder(files)
    let done = 0
    for (const { adapter, file } of ordered) {
      options.signal?.throwIfAborted()
      this.progress(workspace.id, options, { done, total: ordered.length, file: file.path })
      try {
        await importHistoryFile(this.deps, adapter, workspace, file, report, options.signal ? { signal: options.signal } : {})
      } catch (error) {
        if (options.signal?.aborted) throw error
        // One unreadable file must not stop the others; it is reported like a skipped line.
        report.skipped.push({ file: file.path, offset: 0, reason: `file not imported: ${error instanceof Error ? error.message : String(error)}` })
      }
      done += 1
    }
    this.progress(workspace.id, options, { done, total: ordered.length, file: '' })
    if (report.messages + report.sessions + report.fileChanges > 0) this.deps.feed?.changed(['sessions', 'messages', 'checkpoints', 'files', 'workspaces'], { workspaceId: workspace.id })
    return report
  }

  private progress(workspaceId: number, options: ImportOptions, progress: { done: number; total: number; file: string }): void {
    options.onProgress?.(progress)
    if (progress.total > 0) this.deps.feed?.publish({ name: 'import.progress', payload: { workspaceId, ...progress } })
  }

  private queued<T>(workspaceId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workspaceId) ?? Promise.resolve()
    const next = previous.then(work, work)
    this.queues.set(workspaceId, next.catch(() => undefined))
    return next
  }
}

/**
 * Parents before what hangs off them: main sessions first, oldest first (a fork after the
 * session it was forked from, so its copied lines are recognised; a `/clear` successor after
 * its predecessor), then sub-agents.
 */
export function importOrder<T extends { file: HistoryFile }>(files: T[]): T[] {
  const bySession = new Map(files.filter((f) => f.file.role === 'main').map((f) => [f.file.sessionId, f]))
  const depth = (entry: T, seen = new Set<string>()): number => {
    const parent = entry.file.forkedFrom ? bySession.get(entry.file.forkedFrom.sessionId) : undefined
    if (!parent || seen.has(entry.file.sessionId)) return 0
    seen.add(entry.file.sessionId)
    return 1 + depth(parent, seen)
  }
  const rank = (entry: T) => (entry.file.role === 'sub-agent' ? 1_000_000 : depth(entry))
  const started = (entry: T) => entry.file.startedAt ?? Number.MAX_SAFE_INTEGER
  return [...files].sort((a, b) => rank(a) - rank(b) || started(a) - started(b) || a.file.path.localeCompare(b.file.path))
}

function adapterOf(file: HistoryFile): SourceAdapter {
  const [adapter] = adaptersFor(file.source)
  if (!adapter) throw new Error(`No importer for ${file.source}.`)
  return adapter
}

function addReport(total: ImportReport, report: ImportReport): void {
  total.files += report.files
  total.sessions += report.sessions
  total.messages += report.messages
  total.toolCalls += report.toolCalls
  total.fileChanges += report.fileChanges
  total.skipped.push(...report.skipped)
}
