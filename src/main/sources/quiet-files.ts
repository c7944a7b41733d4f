/**
 * An agent writes each history line in one go, so a last line without its newline that stays
 * unfinished for a minute is not being written any more: its writer crashed or the disk filled
 * up. Tests shorten the wait (runtime/tuning.ts).
 */
export const INCOMPLETE_LINE_AFTER_MS = 60_000

/**
 * Which followed files have kept their size for the quiet period: the moment to report an
 * unfinished last line. Each file is due once per size (it is due again after it changes).
 */
export class QuietFiles {
  private readonly sizes = new Map<string, number>()
  private readonly changedAt = new Map<string, number>()
  private readonly looked = new Map<string, number>()

  constructor(private readonly quietMs: number) {}

  /** A file's size now. When it is first seen, its modification time is when it last changed. */
  observe(path: string, size: number, modifiedAt: number, now: number): void {
    const before = this.sizes.get(path)
    if (before === undefined) this.changedAt.set(path, Math.min(modifiedAt, now))
    else if (before !== size) this.changedAt.set(path, now)
    this.sizes.set(path, size)
  }

  /** True once for a file that has not changed for the quiet period since it reached its size. */
  takeDue(path: string, now: number): boolean {
    const size = this.sizes.get(path)
    const changedAt = this.changedAt.get(path)
    if (size === undefined || changedAt === undefined || this.looked.get(path) === size || now - changedAt < this.quietMs) return false
    this.looked.set(path, size)
    return true
  }
}
