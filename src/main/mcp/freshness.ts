import { setTimeout as sleep } from 'node:timers/promises'
import type { Runtime } from '../runtime/runtime'
import { dataFolderOwner } from '../runtime/data-folder-owner'
import type { CliCall } from '../cli/call'

/**
 * What the agents wrote since the last answer is imported before a tool answers: the server
 * does not follow histories live (it may run for days beside a busy agent), so each question
 * brings in the new bytes first. An unchanged history costs a stat per file.
 *
 * A model's tool call has a deadline (often a minute), and a first import of a large history
 * can take longer: a reading tool waits at most `budgetMs`, answers from what is in, and says
 * so; the import goes on behind and the next call finds more. A rewind (and its preview)
 * waits for the whole import, so its plan knows every change the agent recorded.
 */
export class Freshness {
  private readonly running = new Map<string, Promise<string | null>>()
  /** Aborted when the server closes: the imports under way stop between files, before the store closes. */
  private readonly closing = new AbortController()

  constructor(
    private readonly runtime: Runtime,
    private readonly call: CliCall,
    private readonly log: (text: string) => void,
    /** How long a reading tool waits (runtime/tuning.ts, `mcpImportWaitMs`). */
    private readonly budgetMs: number
  ) {}

  /**
   * Every agent's history, into a workspace per recorded folder (new projects too), as the app's
   * background rounds do. Skipped while the app or `retrace serve` runs on this data folder: it
   * imports the same histories itself, and two processes importing the same files only race.
   */
  everything(): Promise<string | null> {
    if (dataFolderOwner(this.runtime.store.dataDir) !== null) return Promise.resolve(null)
    return this.within('*', () => this.runtime.imports.importAll({ markOpened: false, signal: this.closing.signal }), this.budgetMs)
  }

  /** One workspace's histories; `wait: 'all'` waits however long it takes (rewinds). */
  workspace(workspaceId: number, wait: 'budget' | 'all' = 'budget'): Promise<string | null> {
    return this.within(`workspace:${workspaceId}`, () => this.call('imports.run', { workspaceId }), wait === 'all' ? null : this.budgetMs)
  }

  /**
   * Stop the imports under way (what they committed stays; the next start goes on from there)
   * and wait until they have: the store must not close under one.
   */
  async stop(): Promise<void> {
    this.closing.abort()
    const workspaces = [...this.running.keys()].filter((key) => key.startsWith('workspace:')).map((key) => Number(key.slice('workspace:'.length)))
    await Promise.all(workspaces.map((workspaceId) => this.call('imports.cancel', { workspaceId }).catch(() => undefined)))
    await Promise.all(this.running.values())
  }

  /** The import under `key` (joined if one is under way); null, or a note for the answer. */
  private async within(key: string, start: () => Promise<unknown>, budgetMs: number | null): Promise<string | null> {
    let job = this.running.get(key)
    if (!job) {
      job = start().then(
        () => null,
        (error: unknown) => {
          if (this.closing.signal.aborted) return null
          const message = error instanceof Error ? error.message : String(error)
          this.log(`retrace mcp: importing what the agents wrote since failed: ${message}`)
          return `Importing what the agents wrote since failed (${message}): the newest messages and file changes may be missing.`
        }
      )
      this.running.set(key, job)
      void job.finally(() => this.running.delete(key))
    }
    if (budgetMs === null) return job
    const late = Symbol('late')
    const timer = new AbortController()
    const outcome = await Promise.race([job, sleep(budgetMs, late, { ref: false, signal: timer.signal }).catch(() => late)])
    timer.abort()
    if (outcome !== late) return outcome as string | null
    const waited = budgetMs < 1000 ? `${budgetMs} ms` : `${Math.round(budgetMs / 1000)} s`
    return `The import of what the agents wrote since is still running (waited ${waited}): the newest sessions may be missing from this answer; ask again in a moment.`
  }
}
