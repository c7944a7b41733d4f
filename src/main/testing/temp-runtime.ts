import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRuntime, type Runtime } from '../runtime/runtime'
import type { Host } from '../handlers/context'

/** A runtime on a fresh temporary data folder, for tests. Call `dispose` when done. */
export function tempRuntime(host: Host = { binding: 'web' }): Runtime & { dispose(): void } {
  const dataDir = mkdtempSync(join(tmpdir(), 'retrace-test-'))
  const runtime = createRuntime({ dataDir, host, version: '0.0.0-test' })
  return {
    ...runtime,
    dispose() {
      runtime.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

export function tempDir(prefix = 'retrace-test-'): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) }
}
