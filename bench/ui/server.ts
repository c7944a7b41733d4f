import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startRetraceServer, type RunningServer } from '../../e2e/support/retrace-server'
import { projectRoot } from '../lib/child'

export type Served = RunningServer

/** `retrace serve` as a user starts it (the e2e tests' launcher): the built CLI, on the generated data folder. */
export async function serve(dataDir: string): Promise<Served> {
  if (!existsSync(join(projectRoot(), 'out/renderer/index.html'))) throw new Error('The app is not built: run `npm run build` first (the bench serves out/renderer).')
  return startRetraceServer([], {}, { dataDir })
}

/** The built renderer's age against the newest renderer source: a stale build measures old code. */
export function staleBuildWarning(): string | null {
  const root = projectRoot()
  const built = statSync(join(root, 'out/renderer/index.html')).mtimeMs
  const newest = newestMtime(join(root, 'src/renderer/src'))
  return newest > built ? `out/renderer is older than src/renderer (built ${new Date(built).toISOString()}, a source changed ${new Date(newest).toISOString()}): run \`npm run build\` to measure the current code.` : null
}

function newestMtime(dir: string): number {
  let newest = 0
  const walk = (path: string): void => {
    const stat = statSync(path)
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name))
    } else newest = Math.max(newest, stat.mtimeMs)
  }
  walk(dir)
  return newest
}
