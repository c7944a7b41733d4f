import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { formatBytes } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { projectRoot } from '../lib/child'
import { CLI, type ScaleContext } from './context'

const IDLE_TARGET = 0.01
const WINDOW_MS = Number(process.env.RETRACE_BENCH_SCALE_IDLE_SECONDS ?? 60) * 1000
/** Start-up work (recovery, the background import's first round) must end before idle is measured. */
const SETTLE_STEP_MS = 5000
const SETTLE_MAX_MS = 300_000
const SETTLED_BELOW = 0.05

const TICKS_PER_SECOND = 100
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** The process and every descendant (workers, import children). */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const all = [pid]
  for (let index = 0; index < all.length; index++) all.push(...(parents.get(all[index] ?? 0) ?? []))
  return all
}

/** CPU seconds (utime + stime) of the process tree, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  let ticks = 0
  for (const id of tree(pid)) {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // Ended meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND
}

function rssBytes(pid: number): number {
  return tree(pid).reduce((sum, id) => {
    try {
      return sum + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0) * 1024
    } catch {
      return sum
    }
  }, 0)
}

async function cpuShare(pid: number, ms: number): Promise<number> {
  const before = cpuSeconds(pid)
  await sleep(ms)
  return (cpuSeconds(pid) - before) / (ms / 1000)
}

/**
 * `retrace serve` (built CLI) on the imported store with the corpus as the user's history and
 * its background import on, as a user runs it: once its start-up work has settled (a 5 s step
 * under 5% CPU), its CPU over a minute (utime + stime of it and its children) and its RSS.
 * Beside it: how long settling took.
 */
export async function measureServe(ctx: ScaleContext): Promise<ResultRow[]> {
  const child = spawn(process.execPath, [join(projectRoot(), CLI), 'serve', '--port', '0', '--data-dir', ctx.dataDir], {
    cwd: projectRoot(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...ctx.corpus.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const pid = child.pid ?? 0
  try {
    await serving(child)
    const started = Date.now()
    while (Date.now() - started < SETTLE_MAX_MS && (await cpuShare(pid, SETTLE_STEP_MS)) >= SETTLED_BELOW);
    const settleMs = Date.now() - started
    const idle = await cpuShare(pid, WINDOW_MS)
    const rss = rssBytes(pid)
    const window = `${Math.round(WINDOW_MS / 1000)} s`
    return [
      {
        measure: `retrace serve holding the whole history: idle CPU over ${window}`,
        retrace: `${(idle * 100).toFixed(2)} %`,
        reference: `settled ${Math.round(settleMs / 1000)} s after serving`,
        target: `≤ ${IDLE_TARGET * 100} %`,
        met: idle <= IDLE_TARGET * 1.1,
        n: '1'
      },
      { measure: 'retrace serve holding the whole history: RSS', retrace: formatBytes(rss), reference: '(after the idle minute)', target: '(reported)', met: null, n: '1' }
    ]
  } finally {
    const exited = new Promise<void>((done) => child.once('exit', () => done()))
    child.kill('SIGINT')
    await exited
  }
}

function serving(child: ReturnType<typeof spawn>): Promise<void> {
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`retrace serve printed no URL within 120 s:\n${output}`)), 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (!/Retrace is serving http/.test(output)) return
      clearTimeout(timer)
      resolve()
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`retrace serve exited with ${code}:\n${output}`))
    })
  })
}
