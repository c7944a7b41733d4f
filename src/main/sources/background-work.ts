/**
 * The imports and follow checks under way, each with what it is, so a closing runtime can wait
 * for all of them before it closes the store they write to. Work that fails after the close
 * began outlived that store: it is kept as a problem (the test setup fails on it).
 */
export class BackgroundWork {
  private readonly underWay = new Map<Promise<unknown>, string>()
  private readonly closing = new AbortController()
  private readonly failuresAfterClose: string[] = []

  /** Aborted once closing begins: ends the work under way, and new work is refused. */
  get signal(): AbortSignal {
    return this.closing.signal
  }

  get isClosing(): boolean {
    return this.closing.signal.aborted
  }

  /** Count `work` as under way until it settles. */
  track<T>(what: string, work: Promise<T>): Promise<T> {
    this.underWay.set(work, what)
    const forget = () => this.underWay.delete(work)
    work.then(forget, forget)
    return work
  }

  /** A failure of background work: a problem only when it came after the close began. */
  failed(what: string, error: unknown): void {
    if (this.isClosing) this.failuresAfterClose.push(`${what}: ${error instanceof Error ? error.message : String(error)}`)
  }

  beginClose(): void {
    this.closing.abort()
  }

  /** Resolves once nothing is under way; work that ends may have started more, so it waits again. */
  async settled(): Promise<void> {
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay.keys()])
  }

  /** What is under way now ("importing workspace 2", "following workspace 2"…). */
  describe(): string[] {
    return [...this.underWay.values()]
  }

  problems(): string[] {
    return [...this.failuresAfterClose]
  }
}
