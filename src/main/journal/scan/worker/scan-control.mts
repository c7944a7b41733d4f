import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads'
import type { ParentMessage, WireCounts, WorkerMessage } from '../protocol.ts'
import { Cancelled } from './scan-errors.mts'

export const PROGRESS_MS = 100
/** Entries walked between two looks at the port for a cancel. */
const CANCEL_CHECK_EVERY = 32

/**
 * One scan's cancellation and progress. File-system calls are synchronous, so the event loop
 * seldom turns during a walk: a cancel is polled from the port between entries and chunks.
 */
export class ScanControl {
  private readonly port: MessagePort
  private readonly counts: WireCounts
  private readonly onProgress: () => void
  private cancelled = false
  private lastProgress = Date.now()
  private sinceCancelCheck = 0

  /** `onProgress`: progress was just reported (finished files are then handed over too). */
  constructor(port: MessagePort, counts: WireCounts, onProgress: () => void) {
    this.port = port
    this.counts = counts
    this.onProgress = onProgress
  }

  /** A cancel that arrived through the event loop (while a large file is streamed) rather than by polling. */
  cancel(): void {
    this.cancelled = true
  }

  cancelRequested(): boolean {
    for (let m = receiveMessageOnPort(this.port); m && !this.cancelled; m = receiveMessageOnPort(this.port)) {
      this.cancelled = (m.message as ParentMessage).type === 'cancel'
    }
    return this.cancelled
  }

  /** Between entries and chunks: notice a cancel promptly (throws Cancelled), report progress every PROGRESS_MS. */
  tick(force = false): void {
    if (force || ++this.sinceCancelCheck >= CANCEL_CHECK_EVERY) {
      this.sinceCancelCheck = 0
      if (this.cancelRequested()) throw new Cancelled()
    }
    const now = Date.now()
    if (now - this.lastProgress >= PROGRESS_MS) {
      this.lastProgress = now
      this.onProgress()
      this.post({ type: 'progress', ...this.counts })
    }
  }

  post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfer)
  }
}
