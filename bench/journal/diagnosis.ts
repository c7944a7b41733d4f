import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { closeIdleScanWorkers, scanWorkspace } from '../../src/main/journal/scan/scan'
import { scanWorkerPath } from '../../src/main/journal/worker-path'
import { projectRoot } from '../lib/child'
import { formatBytes, formatCount } from '../lib/stats'
import { RetraceSide } from './retrace-side'
import type { InlineEstimate, StorageSizes } from './storage'
import { formatDuration, formatSamples, median, type Paired } from './timing'

// Lines printed under the table that explain the misses, with numbers from the same run.

const STARTUP_RUNS = 7

export interface WorkerStartup {
  /** A scan of an empty folder on a worker started for it, from source. */
  sourceMs: number
  /** The same with the built worker; null when the app was not built (no out/main/scan-worker.js). */
  builtMs: number | null
  /** The same on the worker kept from the previous scan (what the capture rows above use). */
  reusedMs: number
}

/**
 * A process keeps its scan worker between scans; its first scan starts one. Run from source,
 * Node type-strips scan-worker.mts and its modules at that start; the packaged app runs the built .js. Scanning
 * an empty folder on a fresh worker of each, and on a kept one, shows what the start costs.
 * Interleaved so none gets a warmer machine.
 */
export async function measureWorkerStartup(dir: string): Promise<WorkerStartup> {
  const empty = join(dir, 'empty-workspace')
  mkdirSync(empty, { recursive: true })
  const side = await RetraceSide.open(join(dir, 'startup-store'), empty)
  const built = join(projectRoot(), 'out', 'main', 'scan-worker.js')
  const paths = existsSync(built) ? [scanWorkerPath(), built] : [scanWorkerPath()]
  const samples = paths.map((): number[] => [])
  const reused: number[] = []
  const scan = async (workerPath: string): Promise<number> => {
    const started = performance.now()
    await scanWorkspace({ root: empty, workspaceId: side.workspaceId, store: side.runtime.store, blobs: side.runtime.journal.blobs, workerPath })
    return performance.now() - started
  }
  try {
    for (let run = 0; run < STARTUP_RUNS; run++) {
      for (const [index, workerPath] of paths.entries()) {
        await closeIdleScanWorkers()
        samples[index]?.push(await scan(workerPath))
        reused.push(await scan(workerPath))
      }
    }
  } finally {
    await closeIdleScanWorkers()
    side.close()
  }
  return { sourceMs: median(samples[0] ?? []), builtMs: samples[1] ? median(samples[1]) : null, reusedMs: median(reused) }
}

export function workerStartupLine(startup: WorkerStartup): string {
  const built = startup.builtMs === null ? 'the built worker was not measured (no out/main/scan-worker.js: run `npm run build`), so the capture rows above ran from source' : `${formatDuration(startup.builtMs)} with the built out/main/scan-worker.js the app runs`
  return (
    `Diagnosis, capture: a scan of an empty folder on a newly started worker takes ${formatDuration(startup.sourceMs)} from source (scan-worker.mts and its modules, type-stripped at each start); ${built}; ` +
    `${formatDuration(startup.reusedMs)} on the worker kept from the previous scan. The capture rows above run in one long-lived process, which keeps its worker; a process's first capture pays the start (see the next line).`
  )
}

/** The same capture rounds with the worker ended before each capture: what a one-shot `retrace checkpoint end` process pays. */
export function coldCaptureLine(edited: number, times: Paired): string {
  const ratio = median(times.retrace) / median(times.git)
  return (
    `Diagnosis, capture with a newly started worker: capture after ${formatCount(edited)} edited files ${formatSamples(times.retrace)} (${ratio.toFixed(2)}× git's ${formatSamples(times.git)} in the same ${times.retrace.length} rounds), ` +
    'as each one-shot `retrace checkpoint end` process has it (worker start and its code not yet optimized by V8; process start and opening the store, never measured here, come on top).'
  )
}

export function inlineCompressionLine(estimate: InlineEstimate, sizes: StorageSizes): string {
  const projected = (compressed: number): string => formatBytes(sizes.retrace.bytes - estimate.rawBytes + compressed)
  const share = (compressed: number): string => `${((compressed / estimate.rawBytes) * 100).toFixed(0)}%`
  return (
    `Diagnosis, storage: ${formatCount(estimate.blobs)} blobs ≤ 256 KB take ${formatBytes(estimate.rawBytes)} in SQLite as stored (deflated where that saves a tenth). ` +
    `Gzipping the stored bytes again: level 1 makes them ${formatBytes(estimate.level1Bytes)} (${share(estimate.level1Bytes)}, ${formatDuration(estimate.level1Ms)} of CPU), the store about ${projected(estimate.level1Bytes)}; ` +
    `level 6: ${formatBytes(estimate.level6Bytes)} (${share(estimate.level6Bytes)}, ${formatDuration(estimate.level6Ms)}), the store about ${projected(estimate.level6Bytes)}; ` +
    `shadow .git: ${formatBytes(sizes.gitLoose.bytes)} loose.`
  )
}
