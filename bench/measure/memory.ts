import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { projectRoot, viteNodeCli } from '../lib/child'
import { summarize } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { ChildJob, ChildReport } from './memory-child'

const TARGET_MB = 300
const RUNS = 3
const MB = 1024 * 1024

/**
 * Measure 5: resident memory of a separate process that opened the store and served the
 * measured calls, against the same child that only started. Both children run under vite-node
 * (the sources need its import.meta.glob), so both numbers include its overhead; the
 * difference is what Retrace itself adds.
 */
export function measureMemory(job: Omit<ChildJob, 'mode'>): ResultRow {
  const serve = Array.from({ length: RUNS }, () => runChild({ ...job, mode: 'serve' }))
  const idle = Array.from({ length: RUNS }, () => runChild({ ...job, mode: 'idle' }))
  const rss = summarize(serve.map((r) => r.rssBytes)).median / MB
  const peak = summarize(serve.map((r) => r.peakRssBytes)).median / MB
  const idleRss = summarize(idle.map((r) => r.rssBytes)).median / MB
  return {
    measure: '5. resident memory after opening the store and serving measures 2–4 (child process)',
    retrace: `${rss.toFixed(0)} MB RSS (peak ${peak.toFixed(0)} MB; +${(peak - idleRss).toFixed(0)} MB over idle)`,
    reference: `${idleRss.toFixed(0)} MB (same child, Node 22 + vite-node only, store not opened)`,
    target: `≤ ${TARGET_MB} MB`,
    met: peak <= TARGET_MB,
    n: `${RUNS}+${RUNS}`
  }
}

function runChild(job: ChildJob): ChildReport {
  const child = fileURLToPath(new URL('./memory-child.ts', import.meta.url))
  const result = spawnSync(process.execPath, [viteNodeCli(), child], {
    cwd: projectRoot(),
    env: { ...process.env, RETRACE_BENCH_CHILD: JSON.stringify(job) },
    encoding: 'utf8',
    maxBuffer: 16 * MB
  })
  const line = result.stdout.trim().split('\n').at(-1) ?? ''
  if (result.status !== 0 || !line.startsWith('{')) {
    throw new Error(`memory child (${job.mode}) failed with status ${result.status}: ${result.stderr.slice(-2000)}`)
  }
  return JSON.parse(line) as ChildReport
}
