import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { closeIdleScanWorkers } from '../../src/main/journal/scan/scan'
import { TurnCapture } from '../../src/main/journal/turn-capture'
import { createRuntime, type Runtime } from '../../src/main/runtime/runtime'
import type { SessionWriter } from '../../src/main/transcripts/session-writer'
import { databaseOf } from '../../src/main/store/raw-database'

/**
 * Retrace driven the way `retrace checkpoint begin|end` drives it: one session, a user message
 * opens each turn, `TurnCapture.begin` scans before it and `TurnCapture.end` journals what
 * changed; a rewind is `rewinds.applyTurn`. The calls measured are exactly those three, in one
 * long-lived process, which keeps its scan worker from one scan to the next. The CLI runs a
 * process per command, each starting its own worker: `endWorker` gives a capture that too.
 */
export class RetraceSide {
  readonly capture: TurnCapture
  private readonly writer: SessionWriter
  /**
   * The scan worker the app runs: the built out/main/scan-worker.js when `npm run build` has
   * run (npm install does), else the TypeScript source, type-stripped at every start (slower).
   * The same for its deflate helper.
   */
  static readonly workerPath: string | undefined = RetraceSide.builtWorker('scan-worker')
  static readonly deflateWorkerPath: string | undefined = RetraceSide.builtWorker('deflate-worker')

  private static builtWorker(name: string): string | undefined {
    const built = join(__dirname, '..', '..', 'out', 'main', `${name}.js`)
    return existsSync(built) ? built : undefined
  }

  private constructor(
    readonly runtime: Runtime,
    readonly workspaceId: number
  ) {
    this.capture = new TurnCapture(runtime.store, runtime.journal)
    this.writer = runtime.recorder.startSession({ workspaceId, title: 'file journal bench' })
  }

  static async open(dataDir: string, workspaceRoot: string): Promise<RetraceSide> {
    const runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: 'bench' })
    await runtime.ready
    return new RetraceSide(runtime, runtime.store.workspaces.open(workspaceRoot, 'bench workspace'))
  }

  get dataDir(): string {
    return this.runtime.store.dataDir
  }

  /** A user prompt: the next turn starts (and the previous one is closed, as the recorder does). Returns its number. */
  startTurn(): number {
    this.writer.append({ role: 'user', content: `bench turn ${this.writer.turn + 1}` })
    return this.writer.turn
  }

  /** The scan before a turn (the first one of a workspace is its first capture). */
  async begin(): Promise<number> {
    return (await this.capture.begin(this.workspaceId, this.controls())).files.size
  }

  /** The scan after a turn: journals the changes. Returns how many it journaled. Only `TurnCapture.end` runs here, so only it is timed. */
  async end(turn: number): Promise<number> {
    const { changes } = await this.capture.end(this.workspaceId, { sessionRowId: this.sessionRowId(), turn }, this.controls())
    return changes.length
  }

  /** End the scan worker kept from earlier scans, so the next capture starts its own (as a one-shot CLI process does). */
  endWorker(): Promise<void> {
    return closeIdleScanWorkers()
  }

  /** Rewind every file the turn changed to what it was before the turn. Returns files written. */
  async rewind(turn: number): Promise<number> {
    const result = await this.runtime.rewinds.applyTurn(this.writer.id, turn)
    if (result.skipped.length > 0 || result.refused.length > 0) {
      throw new Error(`rewind of turn ${turn} skipped ${result.skipped.length} and refused ${result.refused.length} files: ${[...result.skipped, ...result.refused].slice(0, 3).map((item) => item.conflict ?? item.refused).join('; ')}`)
    }
    return result.steps.length
  }

  /** Wait for what the last rewind left running after it returned: removing the files it set aside (rewind/set-aside.ts). */
  settled(): Promise<void> {
    return this.runtime.rewinds.settled()
  }

  private controls() {
    return {
      ...(RetraceSide.workerPath ? { workerPath: RetraceSide.workerPath } : {}),
      ...(RetraceSide.deflateWorkerPath ? { deflateWorkerPath: RetraceSide.deflateWorkerPath } : {})
    }
  }

  /** Fold the WAL into the database file, so its size on disk is the store's real size. */
  checkpointWal(): void {
    databaseOf(this.runtime.store).pragma('wal_checkpoint(TRUNCATE)')
  }

  close(): void {
    this.runtime.close()
  }

  private sessionRowId(): number {
    return this.runtime.store.sessions.require(this.writer.id).rowId
  }
}
