import type { Db } from './database'

/**
 * SQLite checkpoints a WAL database (copies the log back into the database file, with two
 * fsyncs) at the end of whichever commit finds the log over `wal_autocheckpoint` pages, 1,000
 * by default. With that default, a large rewind's record (a thousand journal entries) often
 * paid tens of milliseconds of checkpoint on the main thread, in the middle of the rewind.
 *
 * Instead, as SQLite's documentation suggests for applications that care about latency, the
 * log is checkpointed when the store is idle: every IDLE_CHECK_MS, unless a rewind or a turn's
 * capture is running (`deferWhile`). Automatic checkpoints stay on as a bound, at BOUND_PAGES,
 * so the log cannot grow without limit while the store is never idle (a long import, say). A
 * passive checkpoint never blocks readers or writers, and one with nothing to copy costs
 * microseconds.
 *
 * A rewind raises the bound while it runs (`deferWhile(work, { raiseBound: true })`): its
 * record is one small commit, and the one that found the log just past the bound would pay for
 * folding all 32 MiB back, a large share of a large rewind (captures that follow each other with
 * no idle second between them leave the log there). The next idle tick after the rewind folds
 * the log back instead.
 */
const IDLE_CHECK_MS = 1000
/** 32 MiB of 4 KiB pages. */
const BOUND_PAGES = 8192
/** The bound while a rewind runs: 128 MiB, still a bound if a rewind stores much (the current content of many unjournaled files). */
const RAISED_BOUND_PAGES = 4 * BOUND_PAGES

export class WalCheckpoints {
  private busy = 0
  private raised = 0
  private readonly timer: NodeJS.Timeout

  constructor(private readonly db: Db) {
    db.pragma(`wal_autocheckpoint = ${BOUND_PAGES}`)
    this.timer = setInterval(() => this.whenIdle(), IDLE_CHECK_MS)
    this.timer.unref() // never what keeps a process alive
  }

  /** Run `work` with no checkpoint started meanwhile but the bound's (with `raiseBound`, the raised bound's). */
  async deferWhile<T>(work: () => Promise<T>, { raiseBound = false }: { raiseBound?: boolean } = {}): Promise<T> {
    this.busy += 1
    if (raiseBound && this.raised++ === 0) this.db.pragma(`wal_autocheckpoint = ${RAISED_BOUND_PAGES}`)
    try {
      return await work()
    } finally {
      this.busy -= 1
      if (raiseBound && --this.raised === 0 && this.db.open) this.db.pragma(`wal_autocheckpoint = ${BOUND_PAGES}`)
    }
  }

  /** True while some work defers checkpoints. */
  get deferred(): boolean {
    return this.busy > 0
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private whenIdle(): void {
    if (this.busy > 0 || !this.db.open) return
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)')
    } catch {
      // Another process holds the database busy: the next tick tries again.
    }
  }
}
