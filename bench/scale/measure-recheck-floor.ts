import { formatCount } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { runNode, type ScaleContext } from './context'

/**
 * The floor under both re-check figures (measure-import.ts): a bare `readdir` of the history's
 * folders and `statSync` of its files, in plain Node, in the same run. A re-check that finds
 * nothing new cannot be cheaper than this without knowing what changed some other way.
 */
export function measureRecheckFloor(ctx: ScaleContext): Promise<ResultRow[]> {
  const floor = runNode<{ readdirMs: number; statMs: number; files: number; folders: number }>(['bench/scale/bare-stat-list.mjs', ctx.corpus.fileList]).result
  return Promise.resolve([
    {
      measure: `the re-check's floor: a stat of every history file (${formatCount(floor.files)} files, ${formatCount(floor.folders)} folders)`,
      retrace: '(the two re-check rows above)',
      reference: `bare statSync loop ${Math.round(floor.statMs)} ms + readdir ${Math.round(floor.readdirMs)} ms`,
      target: '(reference)',
      met: null,
      n: '1'
    }
  ])
}
