import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRuntime, type Runtime } from '../runtime/runtime'
import type { Host } from '../handlers/context'
import type { RewindFaultPlan } from '../journal/rewind/fault-plan'
import { RewindService } from '../journal/rewind/rewind-service'

/** A runtime on a fresh temporary data folder, for tests. Call `dispose` when done. */
export function tempRuntime(host: Host = { binding: 'web' }): Runtime & { dispose(): void; rewindsUnder(faults: RewindFaultPlan): RewindService; settleRewinds(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'retrace-test-'))
  const runtime = createRuntime({ dataDir, host, version: '0.0.0-test' })
  const underFaults: RewindService[] = []
  return {
    ...runtime,
    /** Rewinds of this store run under a test's faults or tuning. */
    rewindsUnder: (faults) => {
      const rewinds = new RewindService(runtime.store, runtime.journal, undefined, faults)
      underFaults.push(rewinds)
      return rewinds
    },
    /** Once every rewind, faulty or not, has removed the files it set aside after returning. */
    settleRewinds: async () => {
      for (const rewinds of [runtime.rewinds, ...underFaults]) await rewinds.settled()
    },
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
