import { join, resolve } from 'node:path'
import { ChangeFeed } from '../events/change-feed'
import { createHandlers } from '../handlers'
import type { Host, HandlerContext } from '../handlers/context'
import { RecordedIndex } from '../sources/recorded-index'
import type { Handlers } from '../rpc/dispatcher'
import { openStore } from '../store/store'
import { Recorder } from '../transcripts/recorder'
import { tuningFrom } from './tuning'
import { FileJournal } from '../journal/file-journal'
import { RewindService } from '../journal/rewind/rewind-service'
import { PreviewWatches } from '../journal/rewind/preview-watch'
import { ImportService } from '../sources/import-service'
import { runImportRounds } from '../sources/import-rounds'
import { StoppedFiles } from '../sources/stopped-files'
import { claimDataFolder, type DataFolderClaim } from './data-folder-owner'
import { rewindRefusalForFolder } from '../sources/agent-store-folders'
import { whyNotAWorkspaceFor } from '../journal/protected-folders'
import type { RecoveryReport } from '../journal/rewind/recover'
import { followHookRuns } from '../agent-hooks/hook-log'
import { serveHookHandoffs } from './hook-handoff-server'
import { captureHookTurn } from './hook-turn'
import { oneAtATimePerKey } from './one-at-a-time'
import { trackClosing } from './closing-runtimes'

export interface Runtime extends HandlerContext {
  handlers: Handlers
  /**
   * What start-up recovery found and did (interrupted rewinds rolled back). Every handler waits
   * for it; a binding awaits it before it serves anything, and a command before it runs.
   */
  recovery: Promise<RecoveryReport>
  /** Whether this process takes the turns agents' hooks hand over (`serveHooks`), once it knows. */
  takesHookTurns: Promise<boolean>
  /**
   * Whether this process owns the data folder's background work (data-folder-owner.ts): asked
   * for by `backgroundImport` or `serveHooks`, null for a runtime that asked for neither.
   */
  dataFolder: DataFolderClaim | null
  /**
   * Stop the background work (live following, imports, background rounds, hook turns) and close
   * the store once none of it is under way any more: at once when nothing is, else when `closed`
   * resolves. Never under start-up recovery.
   */
  close(): void
  /** Resolves once `close` has ended every background job and closed the store (R41). */
  closed: Promise<void>
}

/**
 * Wire the store, recorder, change feed and services for one data folder. Each binding
 * (Electron, web server, CLI) makes one runtime; tests make one per temporary folder.
 */
export function createRuntime(options: {
  dataDir: string
  host: Host
  version: string
  /** Where the importers look for agent histories (CLAUDE_CONFIG_DIR, CODEX_HOME, HOME). */
  env?: NodeJS.ProcessEnv
  /** Follow opened workspaces' agent histories live (the app and `serve`; not one-shot CLI commands). */
  followImports?: boolean
  /**
   * Import every agent's history in the background from the start, and again every so often
   * (the app and `serve`): sessions are kept before an agent's clean-up deletes them, whether
   * or not their workspace is ever opened. RETRACE_BACKGROUND_IMPORT=0 turns it off (tuning.ts).
   */
  backgroundImport?: boolean
  /** Told of a background round that failed (the next one is tried all the same). */
  onBackgroundError?: (error: unknown) => void
  /**
   * Take the turns agents' hooks hand over on `<data-dir>/hooks.sock` (the app and `serve`):
   * see hook-handoff-server.ts. `log` hears why it could not.
   */
  serveHooks?: { log?: (message: string) => void }
}): Runtime {
  const store = openStore(options.dataDir)
  // Sessions imported before this price table (or before Retrace priced at all) get their cost
  // once, here, before anything reads them; imports price as they go from then on.
  if (store.pricing.anyStale()) store.transaction(() => store.pricing.repriceStale())
  const feed = new ChangeFeed()
  const journal = new FileJournal(store)
  const env = options.env ?? process.env
  const tuning = tuningFrom(env)
  const recorder = new Recorder(store, feed, Date.now, tuning.maxForkDepth, journal)
  // The importer's HOME too (it may not be this process's): a rewind never writes in a home folder.
  const rewinds = new RewindService(store, journal, (path) => whyNotAWorkspaceFor(path, env) ?? rewindRefusalForFolder(path))
  const imports = new ImportService({ store, recorder, journal, feed }, env, options.followImports ?? true, tuning.imports, new StoppedFiles(join(options.dataDir, 'import-stopped-files.json')))
  // Before anything reads or writes the journal: finish (roll back) rewinds a crash interrupted,
  // and drop half-written blob temp files.
  journal.blobs.cleanTemp()
  const recovery = rewinds.recover()
  let settled = false
  const ready = recovery.then(() => undefined)
  void ready.then(
    () => (settled = true),
    () => (settled = true) // surfaced to every call that awaits it, not as an unhandled rejection
  )
  const previewWatches = new PreviewWatches((watchId, paths) => feed.publish({ name: 'rewind.previewChanged', payload: { watchId, paths } }))
  const recorded = new RecordedIndex({ store, feed, discovery: () => imports.discoveryCache() }, env, tuning.recordedFreshForMs)
  const ctx: HandlerContext = { store, recorder, feed, host: options.host, version: options.version, journal, rewinds, previewWatches, imports, recorded, ready }
  const background = new AbortController()
  // One process per data folder does the background work; a second app or `serve` on it does
  // none, and `import --all --watch` (a user service) waits while the owner runs.
  const dataFolder = options.backgroundImport === true || options.serveHooks ? claimDataFolder(options.dataDir, options.host.binding === 'electron' ? 'the Retrace app' : 'retrace serve') : null
  const owner = dataFolder?.owned === true
  const importsInBackground = owner && options.backgroundImport === true && tuning.backgroundImport.enabled
  let backgroundRounds: Promise<void> = Promise.resolve()
  let roundsEnded = !importsInBackground
  if (importsInBackground) {
    const { intervalMs } = tuning.backgroundImport
    // A user service's round under way (import --all --watch) stops within a second of the lock: start after it.
    const rounds = { intervalMs, firstRoundDelayMs: Math.min(1500, intervalMs), signal: background.signal, ...(options.onBackgroundError ? { onError: options.onBackgroundError } : {}) }
    // After start-up recovery, as every handler: a rewind interrupted by a crash is settled first.
    backgroundRounds = ready.then(() => runImportRounds(imports, rounds), () => undefined).finally(() => (roundsEnded = true))
  }
  // The turns hooks hand over are captured here, one workspace's after the other; the recorder
  // and the capture publish the changes as they are made.
  const oneWorkspaceAtATime = oneAtATimePerKey()
  const handoffs = options.serveHooks && owner
    ? serveHookHandoffs({
        dataDir: options.dataDir,
        capture: async (request) => (await captureHookTurn(request, { dataDir: options.dataDir, open: () => Promise.resolve(ctx), via: 'app', serialize: oneWorkspaceAtATime })).answer,
        ...(options.serveHooks.log ? { log: options.serveHooks.log } : {})
      })
    : null
  // Agents' hooks that capture turns in processes of their own: what they wrote shows without a
  // reload. The runs this process captured itself were published as they happened.
  const stopHookRuns = options.followImports === false ? () => undefined : followHookRuns(options.dataDir, (run) => {
    if (run.via === 'app' && run.pid === process.pid) return
    const workspace = run.error === null && run.workspace ? store.workspaces.getByPath(resolve(run.workspace)) : undefined
    if (workspace) feed.changed(['sessions', 'messages', 'checkpoints', 'files'], { workspaceId: workspace.id, ...(run.sessionId ? { sessionIds: [run.sessionId] } : {}) })
  })
  // The folder is let go once its socket is: a successor then finds no one answering on it.
  let socketSettled = handoffs === null
  const socketSettles = handoffs ? handoffs.listening.then(() => undefined, () => undefined) : Promise.resolve()
  void socketSettles.then(() => (socketSettled = true))
  const releaseFolder = () => {
    if (dataFolder?.owned) dataFolder.release()
  }
  let closeStarted = false
  let storeClosed: () => void = () => undefined
  const closed = new Promise<void>((resolve) => (storeClosed = resolve))
  const closeStore = () => {
    store.close()
    storeClosed()
  }
  const close = () => {
    if (closeStarted) return
    closeStarted = true
    handoffs?.close()
    stopHookRuns()
    background.abort()
    previewWatches.close()
    if (socketSettled) releaseFolder()
    else void socketSettles.then(releaseFolder)
    // Cancelled, then waited for: an import stopped mid-way commits what it read, on an open store.
    const importsEnded = Promise.all([imports.close(), recorded.close()])
    // A hook's turn under way finishes first (its hook is waiting for it).
    const busy = handoffs ? handoffs.idle() : Promise.resolve()
    if (settled && !handoffs && roundsEnded && imports.workUnderWay().length === 0) closeStore()
    else void Promise.allSettled([ready, busy, importsEnded, backgroundRounds]).then(closeStore)
    trackClosing({ closed, workUnderWay: () => imports.workUnderWay(), problems: () => imports.closeProblems() })
  }
  return { ...ctx, recovery, takesHookTurns: handoffs ? handoffs.listening : Promise.resolve(false), dataFolder, handlers: createHandlers(ctx), close, closed }
}
