import { performance } from 'node:perf_hooks'
import { formatCount, formatMs } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { CLI, corpusEnv, runNode, type ScaleContext } from './context'
import { openRunning } from './in-process'

const COLD_TARGET_MS = 2000
const WARM_TARGET_MS = 200
const WARM_RUNS = 5

/**
 * `workspaces.listAll` (the first screen's full list): cold as `retrace workspaces --json` in a
 * fresh process (beside `retrace --version`), and in a running Retrace, its first call and the
 * median of the next ones.
 */
export async function measureWorkspaces(ctx: ScaleContext): Promise<ResultRow[]> {
  const cold = runNode<unknown[]>([CLI, 'workspaces', '--json', '--data-dir', ctx.dataDir], corpusEnv(ctx))
  const running = await openRunning(ctx)
  try {
    const times: number[] = []
    let count = 0
    for (let run = 0; run <= WARM_RUNS; run++) {
      const started = performance.now()
      const { items } = await running.call<{ items: unknown[] }>('workspaces.listAll', {})
      times.push(performance.now() - started)
      count = items.length
    }
    const [first = 0, ...rest] = times
    rest.sort((a, b) => a - b)
    const warm = rest[Math.floor(rest.length / 2)] ?? 0
    return [
      {
        measure: `workspaces.listAll, cold: \`retrace workspaces --json\` (${formatCount(cold.result.length)} workspaces)`,
        retrace: `${Math.round(cold.ms)} ms`,
        reference: `retrace --version ${Math.round(ctx.startupMs)} ms`,
        target: `≤ ${COLD_TARGET_MS} ms`,
        met: cold.ms <= COLD_TARGET_MS * 1.1,
        n: '1'
      },
      {
        measure: `workspaces.listAll in a running Retrace (${formatCount(count)} workspaces)`,
        retrace: `${formatMs(warm)} ms median`,
        reference: `its first call ${formatMs(first)} ms`,
        target: `≤ ${WARM_TARGET_MS} ms warm`,
        met: warm <= WARM_TARGET_MS * 1.1,
        n: String(WARM_RUNS)
      }
    ]
  } finally {
    running.close()
  }
}
