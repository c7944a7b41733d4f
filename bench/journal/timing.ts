import { performance } from 'node:perf_hooks'
import { formatMs, summarize } from '../lib/stats'
import { flushDisk } from './disk'

/** Time one step after flushing the disk (see flushDisk). Returns the step's result and its milliseconds. */
export async function timed<T>(step: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  flushDisk()
  const started = performance.now()
  const value = await step()
  return { value, ms: performance.now() - started }
}

/** Paired samples of one comparison: Retrace and git, one of each per round. */
export interface Paired {
  retrace: number[]
  git: number[]
}

export const paired = (): Paired => ({ retrace: [], git: [] })

export function median(samples: number[]): number {
  return summarize(samples).median
}

/** "1.23 s" or "456 ms". */
export function formatDuration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${formatMs(ms)} ms`
}

/** "1.23 s (max 1.40)": the median of a few runs, and the worst of them. */
export function formatSamples(samples: number[]): string {
  if (samples.length === 1) return formatDuration(samples[0] ?? NaN)
  return `${formatDuration(median(samples))} (max ${formatDuration(Math.max(...samples))})`
}
