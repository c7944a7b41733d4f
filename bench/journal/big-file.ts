import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { projectRoot, viteNodeCli } from '../lib/child'
import { createRng } from '../lib/prng'
import { formatBytes } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { BigFileJob, BigFileReport } from './big-file-child'
import { randomBytes, structuredBytes } from './content'
import { dirSize, flushDisk } from './disk'
import { formatDuration } from './timing'

const MIB = 1024 * 1024
const TARGET_GROWTH_MB = 100
const NAME = 'big.bin'

/**
 * The large file: real bytes (no sparse file), 1 MiB chunks alternating between
 * random and structured content, so gzip works (about 60% of the size) but cannot cheat.
 * Written and hashed by the parent, one chunk at a time with writeSync (no stream buffering), so
 * neither process ever holds more than a chunk of it.
 */
function writeBigFile(path: string, bytes: number, seed: number): string {
  const rng = createRng(seed)
  const hash = createHash('sha256')
  const fd = openSync(path, 'w')
  try {
    for (let offset = 0, chunk = 0; offset < bytes; offset += MIB, chunk++) {
      const size = Math.min(MIB, bytes - offset)
      const content = chunk % 2 === 0 ? randomBytes(`big:${seed}:${chunk}`, size) : structuredBytes(rng, size)
      for (let written = 0; written < size; ) written += writeSync(fd, content, written)
      hash.update(content)
    }
  } finally {
    closeSync(fd)
  }
  return hash.digest('hex')
}

export interface BigFileResult {
  report: BigFileReport
  bytes: number
  storedBytes: number
}

/** Create the file, run the child, and always delete the file, the store and the restored copy. */
export function measureBigFile(dir: string, bytes: number, seed: number): BigFileResult {
  const root = join(dir, 'big-workspace')
  const dataDir = join(dir, 'big-store')
  mkdirSync(root, { recursive: true })
  try {
    const sha256 = writeBigFile(join(root, NAME), bytes, seed)
    flushDisk()
    const job: BigFileJob = { dataDir, root, name: NAME, sha256 }
    const child = fileURLToPath(new URL('./big-file-child.ts', import.meta.url))
    // --expose-gc: the child collects garbage before taking its baseline.
    const result = spawnSync(process.execPath, ['--expose-gc', viteNodeCli(), child], {
      cwd: projectRoot(),
      env: { ...process.env, RETRACE_BENCH_BIG_FILE_JOB: JSON.stringify(job) },
      encoding: 'utf8',
      maxBuffer: 16 * MIB
    })
    const line = result.stdout.trim().split('\n').at(-1) ?? ''
    if (result.status !== 0 || !line.startsWith('{')) throw new Error(`large-file child failed with status ${result.status}: ${result.stderr.slice(-2000)}`)
    const report = JSON.parse(line) as BigFileReport
    if (!report.restored) throw new Error('the large file was not restored byte-exact')
    return { report, bytes, storedBytes: dirSize(join(dataDir, 'blobs')).bytes }
  } finally {
    rmSync(root, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function bigFileRow(result: BigFileResult): ResultRow {
  const { report } = result
  const mb = (value: number): string => (value / MIB).toFixed(0)
  const growth = Math.max(report.capturePeakBytes, report.restorePeakBytes) - report.baselineBytes
  return {
    measure: `${formatBytes(result.bytes)} file: scan-captured, deleted, rewound (child process), peak RSS growth`,
    retrace:
      `+${mb(growth)} MB (capture +${mb(report.capturePeakBytes - report.baselineBytes)} MB in ${formatDuration(report.captureMs)}, ` +
      `restore +${mb(report.restorePeakBytes - report.baselineBytes)} MB in ${formatDuration(report.restoreMs)}; stored as ${mb(result.storedBytes)} MB gzip; restored byte-exact)`,
    reference: `child baseline ${mb(report.baselineBytes)} MB RSS (Node + vite-node + store open)${report.peakReset ? '' : '; VmHWM not resettable, peaks include start-up'}`,
    target: `< ${TARGET_GROWTH_MB} MB growth`,
    met: growth < TARGET_GROWTH_MB * MIB,
    n: '1'
  }
}
