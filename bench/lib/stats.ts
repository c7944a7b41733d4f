import { performance } from 'node:perf_hooks'

/** Median and 95th percentile of repeated timings, in milliseconds. */
export interface Timing {
  median: number
  p95: number
  n: number
}

export interface RepeatOptions {
  /** Measured repetitions (after warm-up). */
  n: number
  /** Unmeasured runs first: prepared statements, page cache and JIT settle before we time. */
  warmup: number
  /** Stop early (but after at least 3 runs) once this much time went into measured runs, so a slow case cannot blow the run's budget. */
  budgetMs?: number
}

/** A slow case warms up for at most a quarter of its budget (but always at least once). */
function warmupBudget(options: RepeatOptions): number {
  return options.budgetMs === undefined ? Infinity : options.budgetMs / 4
}

export function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN
  const mid = sorted.length / 2
  const median = sorted.length % 2 === 1 ? at(0.5) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2
  return { median, p95: at(0.95), n: sorted.length }
}

/** Time an async call (the dispatcher is async even when the handler is not). */
export async function repeatAsync(work: () => Promise<unknown>, options: RepeatOptions): Promise<Timing> {
  const warmupEnd = performance.now() + warmupBudget(options)
  for (let i = 0; i < options.warmup && (i === 0 || performance.now() < warmupEnd); i++) await work()
  const samples: number[] = []
  let spent = 0
  while (samples.length < options.n && !(options.budgetMs !== undefined && spent > options.budgetMs && samples.length >= 3)) {
    const start = performance.now()
    await work()
    const elapsed = performance.now() - start
    samples.push(elapsed)
    spent += elapsed
  }
  return summarize(samples)
}

/** Time a synchronous call (bare SQL, JSON.parse) with the same protocol as repeatAsync. */
export function repeatSync(work: () => unknown, options: RepeatOptions): Timing {
  const warmupEnd = performance.now() + warmupBudget(options)
  for (let i = 0; i < options.warmup && (i === 0 || performance.now() < warmupEnd); i++) work()
  const samples: number[] = []
  let spent = 0
  while (samples.length < options.n && !(options.budgetMs !== undefined && spent > options.budgetMs && samples.length >= 3)) {
    const start = performance.now()
    work()
    const elapsed = performance.now() - start
    samples.push(elapsed)
    spent += elapsed
  }
  return summarize(samples)
}

/** "1.23 ms (p95 1.50)" — the shape every latency cell of the table uses. */
export function formatTiming(timing: Timing): string {
  return `${formatMs(timing.median)} ms (p95 ${formatMs(timing.p95)})`
}

export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0)
  if (ms >= 10) return ms.toFixed(1)
  return ms.toFixed(2)
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GiB`
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
}
