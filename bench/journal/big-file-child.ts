// Child process of the large-file measure: opens a store, captures a workspace holding one
// large file with the scanner, "the agent" deletes it, and a rewind restores it. Peak resident
// memory is read from the kernel (VmHWM), reset just before each phase, so the report is the
// growth the capture and the restore cause over this process's own baseline, worker thread
// included (it runs in this process). One JSON line on stdout.
import { createHash } from 'node:crypto'
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pipeline } from 'node:stream/promises'

export interface BigFileJob {
  dataDir: string
  root: string
  name: string
  sha256: string
}

export interface BigFileReport {
  /** RSS just before the capture: Node, vite-node, the sources and an open store. */
  baselineBytes: number
  /** Peak RSS during each phase (VmHWM, reset at the start of the phase). */
  capturePeakBytes: number
  restorePeakBytes: number
  /** The highest RSS seen by a 20 ms sampler over both phases: a cross-check of VmHWM. */
  sampledPeakBytes: number
  /** False if the kernel refused the reset: the peaks then include start-up (an overestimate). */
  peakReset: boolean
  captureMs: number
  restoreMs: number
  restored: boolean
}

const KB = 1024

/** VmHWM (peak RSS) of this process, in bytes. */
function peakRss(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))
  return match ? Number(match[1]) * KB : process.resourceUsage().maxRSS * KB
}

/** Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0). */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

async function run(job: BigFileJob): Promise<BigFileReport> {
  // Imported here, not at the top, so nothing of Retrace is loaded before the job is read.
  const { RetraceSide } = await import('./retrace-side')
  const side = await RetraceSide.open(job.dataDir, job.root)
  const turn = side.startTurn()
  ;(globalThis as { gc?: () => void }).gc?.()

  let sampledPeakBytes = 0
  const sampler = setInterval(() => (sampledPeakBytes = Math.max(sampledPeakBytes, process.memoryUsage().rss)), 20)
  const baselineBytes = process.memoryUsage().rss
  let peakReset = resetPeak()
  let started = performance.now()
  const files = await side.begin()
  const captureMs = performance.now() - started
  const capturePeakBytes = peakRss()
  if (files !== 1) throw new Error(`the capture saw ${files} files, expected 1`)

  rmSync(join(job.root, job.name)) // the agent's turn: the file is gone
  await side.end(turn)

  peakReset = resetPeak() && peakReset
  started = performance.now()
  await side.rewind(turn)
  const restoreMs = performance.now() - started
  const restorePeakBytes = peakRss()
  clearInterval(sampler)

  const restored = (await sha256Of(join(job.root, job.name))) === job.sha256
  side.close()
  return { baselineBytes, capturePeakBytes, restorePeakBytes, sampledPeakBytes, peakReset, captureMs, restoreMs, restored }
}

const raw = process.env.RETRACE_BENCH_BIG_FILE_JOB
if (raw) process.stdout.write(`${JSON.stringify(await run(JSON.parse(raw) as BigFileJob))}\n`)
