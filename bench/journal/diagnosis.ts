import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { scanWorkspace } from '../../src/main/journal/scan/scan'
import { scanWorkerPath } from '../../src/main/journal/scan/worker-path'
import { projectRoot } from '../lib/child'
import { formatBytes, formatCount } from '../lib/stats'
import { RetraceSide } from './retrace-side'
import type { InlineEstimate, StorageSizes } from './storage'
import { formatDuration, median } from './timing'

// Lines printed under the table that explain the misses, with numbers from the same run.

const STARTUP_RUNS = 7

export interface WorkerStartup {
  sourceMs: number
  /** Null when the app was not built (no out/main/scan-worker.js). */
  builtMs: number | null
}

/**
 * Every scan starts a worker thread. Run from source, as this bench does, Node type-strips
 * scan-worker.mts on every start; the packaged app runs the built .js. Scanning an empty folder
 * with each shows how much of a capture's fixed cost is that start, and how much of it the
 * bench adds. The two are interleaved so neither gets a warmer machine.
 */
export async function measureWorkerStartup(dir: string): Promise<WorkerStartup> {
  const empty = join(dir, 'empty-workspace')
  mkdirSync(empty, { recursive: true })
  const side = await RetraceSide.open(join(dir, 'startup-store'), empty)
  const built = join(projectRoot(), 'out', 'main', 'scan-worker.js')
  const paths = existsSync(built) ? [scanWorkerPath(), built] : [scanWorkerPath()]
  const samples = paths.map((): number[] => [])
  try {
    for (let run = 0; run < STARTUP_RUNS; run++) {
      for (const [index, workerPath] of paths.entries()) {
        const started = performance.now()
        await scanWorkspace({ root: empty, workspaceId: side.workspaceId, db: side.runtime.store.db, blobs: side.runtime.journal.blobs, workerPath })
        samples[index]?.push(performance.now() - started)
      }
    }
  } finally {
    side.close()
  }
  return { sourceMs: median(samples[0] ?? []), builtMs: samples[1] ? median(samples[1]) : null }
}

export function workerStartupLine(startup: WorkerStartup): string {
  const built = startup.builtMs === null ? 'the built worker was not measured (no out/main/scan-worker.js: run `npm run build`), so the capture rows above ran from source' : `${formatDuration(startup.builtMs)} with the built out/main/scan-worker.js the app runs (what the capture rows above use)`
  return `Diagnosis, capture: a scan of an empty folder (worker start + teardown) takes ${formatDuration(startup.sourceMs)} from source (scan-worker.mts, type-stripped at each start); ${built}. Every capture pays it once.`
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
