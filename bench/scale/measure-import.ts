import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { reimportInProcess } from '../import/in-process'
import { formatBytes, formatCount } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import { CLI, corpusEnv, runNode, type ScaleContext } from './context'

const IMPORT_RATIO_TARGET = 0.5
const PEAK_RSS_TARGET = 300 * 1024 * 1024
const RECHECK_CLI_TARGET_MS = 1000
const RECHECK_IN_PROCESS_TARGET_MS = 300

/** Bytes of every file under a folder: the database, its WAL and the blobs beside it. */
function folderBytes(folder: string): number {
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(folder, entry.name)
    return sum + (entry.isDirectory() ? folderBytes(path) : entry.isFile() ? statSync(path).size : 0)
  }, 0)
}

interface ImportReport {
  files: number
  sessions: number
  messages: number
}

/**
 * The first `retrace import --all` of the whole history (built CLI, its own process, so its peak
 * RSS is its own) beside a bare streaming parse of the same bytes; then the re-check that finds
 * nothing new, as a command and inside a running Retrace; then the store's size. Fills the store
 * every later measure reads.
 */
export async function measureImport(ctx: ScaleContext): Promise<ResultRow[]> {
  const { corpus } = ctx
  const env = corpusEnv(ctx)
  const parse = runNode<{ ms: number; lines: number }>(['bench/scale/bare-parse-list.mjs', corpus.fileList])
  console.error(`  bare parse: ${(parse.ms / 1000).toFixed(1)} s; importing…`)
  const imported = runNode<ImportReport>([CLI, 'import', '--all', '--json', '--data-dir', ctx.dataDir], env)
  console.error(`  import: ${(imported.ms / 1000).toFixed(1)} s; re-checking…`)
  const again = runNode<ImportReport>([CLI, 'import', '--all', '--json', '--data-dir', ctx.dataDir], env)
  const inProcess = await reimportInProcess(ctx.dataDir, env)
  const work = Math.max(1, imported.ms - ctx.startupMs)
  const mbps = (ms: number) => `${(corpus.bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`
  const ratio = parse.result.ms / work
  const storeBytes = folderBytes(ctx.dataDir)
  const historyGiB = corpus.bytes / 1024 ** 3
  return [
    {
      measure: `import --all, first time (${formatCount(imported.result.sessions)} sessions, ${formatCount(imported.result.messages)} messages)`,
      retrace: `${(work / 1000).toFixed(1)} s past start-up, ${mbps(work)}`,
      reference: `bare parse ${(parse.result.ms / 1000).toFixed(1)} s, ${mbps(parse.result.ms)} (${formatCount(parse.result.lines)} lines, ${formatBytes(corpus.bytes)})`,
      target: `≥ ${IMPORT_RATIO_TARGET * 100}% of bare`,
      met: ratio >= IMPORT_RATIO_TARGET * 0.9,
      n: `1 (${Math.round(ratio * 100)}%)`
    },
    {
      measure: 'import --all, first time: peak RSS',
      retrace: formatBytes(imported.peakRssBytes),
      reference: `bare parse ${formatBytes(parse.peakRssBytes)}`,
      target: `≤ ${formatBytes(PEAK_RSS_TARGET)}`,
      met: imported.peakRssBytes <= PEAK_RSS_TARGET * 1.1,
      n: '1'
    },
    {
      measure: `import --all again, nothing new (CLI; ${formatCount(again.result.files)} files read)`,
      retrace: `${Math.round(again.ms)} ms`,
      reference: `retrace --version ${Math.round(ctx.startupMs)} ms`,
      target: `≤ ${RECHECK_CLI_TARGET_MS} ms`,
      met: again.ms <= RECHECK_CLI_TARGET_MS * 1.1,
      n: '1'
    },
    {
      measure: 'import --all again in a running Retrace, nothing new',
      retrace: `${inProcess.medianMs.toFixed(1)} ms median (first call ${Math.round(inProcess.firstMs)} ms)`,
      reference: inProcess.files === 0 ? 'no file read' : `${formatCount(inProcess.files)} files read`,
      target: `≤ ${RECHECK_IN_PROCESS_TARGET_MS} ms`,
      met: inProcess.medianMs <= RECHECK_IN_PROCESS_TARGET_MS * 1.1,
      n: '5'
    },
    {
      measure: 'store size per GiB of history',
      retrace: `${formatBytes(storeBytes / historyGiB)} (store ${formatBytes(storeBytes)})`,
      reference: `history ${formatBytes(corpus.bytes)}`,
      target: '(reported)',
      met: null,
      n: '1'
    }
  ]
}
