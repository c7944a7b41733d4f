import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where a worker thread's script is. Built: `out/main/<name>.js` (its own electron-vite entry),
 * next to the calling module's bundle or one level up when that lands in `out/main/chunks/`.
 * From source (vitest, the benchmarks): the `.mts` file at `source`, relative to this folder,
 * which Node 22 runs with type stripping.
 */
export function workerScriptPath(name: string, source: string, dir: string = __dirname): string {
  const candidates = [join(dir, `${name}.js`), join(dir, '..', `${name}.js`), join(dir, source)]
  return candidates.find((path) => existsSync(path)) ?? join(dir, source)
}

/** The workspace scanner's worker (scan/scan-worker.mts). */
export const scanWorkerPath = (dir: string = __dirname): string => workerScriptPath('scan-worker', 'scan/scan-worker.mts', dir)

/** The scan's deflate helper (scan/deflate-worker.mts), started by the scan worker. */
export const deflateWorkerPath = (dir: string = __dirname): string => workerScriptPath('deflate-worker', 'scan/deflate-worker.mts', dir)

/** The blob writers' worker (blob-writer-worker.mts). */
export const blobWriterWorkerPath = (dir: string = __dirname): string => workerScriptPath('blob-writer-worker', 'blob-writer-worker.mts', dir)
