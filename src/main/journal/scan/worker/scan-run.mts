import { rmSync } from 'node:fs'
import type { MessagePort } from 'node:worker_threads'
import type { ScanInput, WorkerMessage } from '../protocol.ts'
import type { InlinePacker } from './inline-packer.mts'
import { Cancelled, Fault, messageOf } from './scan-errors.mts'
import { ScanScope } from './scan-scope.mts'
import { walk } from './walk.mts'

/** One `scan` message's run: the walk, then `done`, `cancelled` or `error` to the parent. */
export class ScanRun {
  private readonly port: MessagePort
  private readonly packer: InlinePacker
  private scope: ScanScope | null = null

  constructor(port: MessagePort, packer: InlinePacker) {
    this.port = port
    this.packer = packer
  }

  /**
   * A cancel is usually polled between files (ScanControl); one that arrives while a large file
   * is being streamed (the event loop turns) lands here instead.
   */
  cancel(): void {
    this.scope?.control.cancel()
  }

  async run(input: ScanInput): Promise<void> {
    try {
      const scope = (this.scope = new ScanScope(input, this.port, this.packer))
      const complete = await walk(scope)
      await scope.batches.flush()
      this.post({ type: 'done', skipped: scope.skipped, truncated: !complete, counts: scope.counts })
    } catch (error) {
      // Temp files of files not yet handed over would be orphans: remove them.
      for (const temp of this.scope?.batches.pendingTemps() ?? []) rmSync(temp, { force: true })
      if (this.scope?.openTemp) rmSync(this.scope.openTemp, { force: true })
      if (error instanceof Cancelled) this.post({ type: 'cancelled' })
      else {
        const code = (error as { code?: unknown }).code
        this.post({ type: 'error', key: error instanceof Fault ? error.key : null, message: messageOf(error), ...(typeof code === 'string' ? { code } : {}) })
      }
    } finally {
      this.scope = null
    }
  }

  private post(message: WorkerMessage): void {
    this.port.postMessage(message)
  }
}
