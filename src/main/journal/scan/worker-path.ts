import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where the scan worker's code is. Built: `out/main/scan-worker.js` (its own electron-vite
 * entry), next to this module's bundle or one level up when this module lands in
 * `out/main/chunks/`. From source (vitest): the `.mts` file beside this one, which Node 22 runs
 * with type stripping.
 */
export function scanWorkerPath(dir: string = __dirname): string {
  const candidates = [join(dir, 'scan-worker.js'), join(dir, '..', 'scan-worker.js'), join(dir, 'scan-worker.mts')]
  return candidates.find((path) => existsSync(path)) ?? join(dir, 'scan-worker.mts')
}
