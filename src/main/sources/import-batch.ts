import type { Store } from '../store/store'
import { diskFullMessage, isDiskFull } from '../journal/disk-full'

/**
 * Lines of one import committed together, whichever files they come from: one transaction for
 * up to BATCH_BYTES of lines or BATCH_LINES lines. A commit is the larger part of importing a
 * small file (a commit per file makes many small files pay one each). A batch is still short
 * enough to keep the event loop (the window's IPC, the web server) waiting at most a few tens of
 * milliseconds: larger batches keep the window's requests waiting longer during a large import,
 * for no more throughput.
 */
const BATCH_BYTES = 4 * 1024 * 1024
const BATCH_LINES = 2000

/** One file's part in a batch: what a failure of one of its chunks stops. */
export interface BatchedFile {
  /** Set once one of its chunks failed: its later chunks are dropped (their state follows the failed one). */
  failed: boolean
  /** Report the failure (the file's chunks in this and earlier batches that committed stay). */
  onFailed(error: unknown): void
}

/** The batch's transaction itself failed (the disk is full, the store is locked): the import stops. */
export class BatchCommitFailed extends Error {
  constructor(
    override readonly cause: unknown,
    dataDir: string
  ) {
    // A full disk is no file's fault: it stops the import, and the sentence says where to free space.
    const why = isDiskFull(cause)
      ? `${diskFullMessage(dataDir)}. Nothing was lost: what earlier imports saved is kept, the agents' files are untouched, and the next import goes on from the last lines saved.`
      : cause instanceof Error
        ? cause.message
        : String(cause)
    super(`The imported lines could not be saved: ${why}`)
    this.name = 'BatchCommitFailed'
  }
}

interface Entry {
  file: BatchedFile
  apply: () => void
}

/**
 * Chunks waiting for their commit. Each chunk is applied in a savepoint of the batch's
 * transaction, so a chunk that throws (a bug, a file the store refuses) costs its own file, as
 * when each file had its transactions: the other files' chunks commit. Every chunk saves its
 * file's offset with its lines, so a crash leaves whole chunks or none, as before.
 */
export class ImportBatch {
  private entries: Entry[] = []
  private bytes = 0
  private lines = 0
  private afterCommit: (() => void)[] = []
  /** The import's first chunk commits alone: a window opening a large history lists its first sessions at once. */
  private committedOnce = false

  constructor(private readonly store: Store) {}

  /** Queue one chunk; commits the batch once it is full. */
  add(file: BatchedFile, apply: () => void, size: { bytes: number; lines: number }): void {
    this.entries.push({ file, apply })
    this.bytes += size.bytes
    this.lines += size.lines
    if (!this.committedOnce || this.bytes >= BATCH_BYTES || this.lines >= BATCH_LINES) this.commit()
  }

  /** Run `done` once everything queued so far is committed (at once when nothing is queued). */
  whenCommitted(done: () => void): void {
    if (this.entries.length === 0) done()
    else this.afterCommit.push(done)
  }

  get pending(): boolean {
    return this.entries.length > 0
  }

  commit(): void {
    const entries = this.entries
    const afterCommit = this.afterCommit
    this.entries = []
    this.afterCommit = []
    this.bytes = 0
    this.lines = 0
    if (entries.length > 0) {
      this.committedOnce = true
      try {
        this.store.transaction(() => {
          for (const { file, apply } of entries) {
            if (file.failed) continue
            try {
              this.store.transaction(apply) // a savepoint inside the batch's transaction
            } catch (error) {
              if (isDiskFull(error)) throw error
              file.failed = true
              file.onFailed(error)
            }
          }
        })
      } catch (error) {
        throw new BatchCommitFailed(error, this.store.dataDir)
      }
    }
    for (const done of afterCommit) done()
  }
}

/** Let the event loop run what waits (the window's requests, a cancel) before going on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
