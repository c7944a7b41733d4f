import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { projectRoot } from '../lib/child'
import { makeTempDir, removeDir } from '../lib/files'
import { formatBytes, formatCount } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { measureFirstOpen } from './first-open'
import { reimportInProcess } from './in-process'
import { claudeHistory, claudeHugeLine, claudeManyFiles, claudeOneFile, claudeSmallFiles, codexManyFiles, type Corpus } from './histories'

// `npm run bench:import` (after `npm run build`): how fast the built `retrace import --all` reads
// agent histories made of real files (bench/import/histories.ts), against a bare streaming read +
// JSON.parse of the same lines in plain Node, measured in the same run. Each runs in a process of
// its own, so its peak RSS is its own.
// RETRACE_BENCH_IMPORT_MB (default 100) sets the size of the big corpora,
// RETRACE_BENCH_IMPORT_SMALL (default 5000) the number of small files, and
// RETRACE_BENCH_IMPORT_FIRST_OPEN (default 1000; 0 skips it) the sessions of the history opened
// in the window (first-open.ts). See bench/README.md.

const MB = Number(process.env.RETRACE_BENCH_IMPORT_MB ?? 100)
const SMALL = Number(process.env.RETRACE_BENCH_IMPORT_SMALL ?? 5000)
const FIRST_OPEN_SESSIONS = Number(process.env.RETRACE_BENCH_IMPORT_FIRST_OPEN ?? 1000)
const TARGET_RATIO = { big: 0.5, small: 0.4 }
const PEAK_RSS_TARGET = 250 * 1024 * 1024
const REIMPORT_TARGET_MS = 50

interface Run<T> {
  result: T
  ms: number
  peakRssBytes: number
}

/** Run `node ARGS` with the RSS reporter preloaded: its JSON output, wall time and peak RSS. */
function run<T>(args: string[], env: Record<string, string> = {}): Run<T> {
  const started = performance.now()
  const child = spawnSync(process.execPath, ['--require', join(projectRoot(), 'bench/import/report-rss.cjs'), ...args], {
    cwd: projectRoot(),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent', ...env }
  })
  const ms = performance.now() - started
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed (${child.status}): ${child.stderr}`)
  const peak = /bench-peak-rss-bytes (\d+)/.exec(child.stderr)?.[1]
  const out = child.stdout.trim()
  const json = (out.startsWith('{') ? JSON.parse(out) : out) as T
  return { result: json, ms, peakRssBytes: Number(peak ?? 0) }
}

interface ImportReport {
  sessions: number
  messages: number
  skipped: unknown[]
}

const CLI = 'bin/retrace.js'

async function measure(corpus: Corpus, dir: string, target: number, startupMs: number): Promise<ResultRow[]> {
  const parse = run<{ ms: number; lines: number }>(['bench/import/bare-parse.mjs', ...corpus.files])
  const dataDir = join(dir, `data-${corpus.name.replace(/\W+/g, '-')}`)
  const imported = run<ImportReport>([CLI, 'import', '--all', '--json', '--data-dir', dataDir], corpus.env)
  const again = run<ImportReport>([CLI, 'import', '--all', '--json', '--data-dir', dataDir], corpus.env)
  const inProcess = await reimportInProcess(dataDir, corpus.env)
  // The command's work past its start-up (Node, the bundle, the store) against the bare parse.
  const work = Math.max(1, imported.ms - startupMs)
  const mbps = (ms: number) => `${(corpus.bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s`
  const ratio = parse.result.ms / work
  const size = `${formatCount(corpus.files.length)} file${corpus.files.length === 1 ? '' : 's'}, ${formatBytes(corpus.bytes)}`
  return [
    {
      measure: `${corpus.name}: import --all (${formatCount(imported.result.sessions)} sessions, ${formatCount(imported.result.messages)} messages)`,
      retrace: `${(work / 1000).toFixed(2)} s past start-up, ${mbps(work)}`,
      reference: `bare parse ${(parse.result.ms / 1000).toFixed(2)} s, ${mbps(parse.result.ms)} (${formatCount(parse.result.lines)} lines, ${size})`,
      target: `≥ ${Math.round(target * 100)}% of bare`,
      met: ratio >= target,
      n: `${Math.round(ratio * 100)}%`
    },
    {
      measure: `${corpus.name}: peak RSS of the import`,
      retrace: formatBytes(imported.peakRssBytes),
      reference: `bare parse ${formatBytes(parse.peakRssBytes)}`,
      target: `≤ ${formatBytes(PEAK_RSS_TARGET)}`,
      met: imported.peakRssBytes <= PEAK_RSS_TARGET,
      n: '1'
    },
    {
      measure: `${corpus.name}: import --all again, nothing new`,
      retrace: `${Math.round(again.ms)} ms (${Math.round(again.ms - startupMs)} ms past start-up)`,
      reference: `retrace --version ${Math.round(startupMs)} ms`,
      target: '(reported beside start-up)',
      met: true,
      n: '1'
    },
    {
      measure: `${corpus.name}: import --all again in a running Retrace, nothing new`,
      retrace: `${inProcess.medianMs.toFixed(1)} ms (first call ${Math.round(inProcess.firstMs)} ms)`,
      reference: inProcess.files === 0 ? 'no file read' : `${inProcess.files} files read`,
      target: `≤ ${REIMPORT_TARGET_MS} ms`,
      met: inProcess.medianMs <= REIMPORT_TARGET_MS && inProcess.files === 0,
      n: '5'
    }
  ]
}

/**
 * A user's history is on the disk already: the corpus just written is flushed before it is
 * read, so the kernel writing it back does not share the measured seconds (hundreds of MB).
 */
function settled(corpus: Corpus): Corpus {
  spawnSync('sync')
  return corpus
}

async function main(): Promise<void> {
  const dir = makeTempDir()
  try {
    const workspace = join(dir, 'workspace')
    mkdirSync(workspace)
    if (!existsSync(join(projectRoot(), 'out/main/cli.js'))) throw new Error('The bench runs the built CLI: run `npm run build` first.')
    // What every command costs before it does anything: Node, the bundle, the store opened.
    const startupMs = Math.min(...[0, 1, 2].map(() => run<unknown>([CLI, '--version']).ms))
    const rows: ResultRow[] = []
    const corpora: [() => Corpus, number][] = [
      [() => claudeManyFiles(dir, workspace, MB), TARGET_RATIO.big],
      [() => claudeOneFile(dir, workspace, MB), TARGET_RATIO.big],
      [() => codexManyFiles(dir, workspace, MB), TARGET_RATIO.big],
      [() => claudeSmallFiles(dir, workspace, SMALL), TARGET_RATIO.small],
      // Its line is skipped unread: only the import's memory says something.
      [() => claudeHugeLine(dir, workspace, Math.max(1, Math.round(MB / 10))), 0]
    ]
    for (const [make, target] of corpora) {
      const corpus = settled(make())
      console.error(`measuring ${corpus.name} (${formatBytes(corpus.bytes)})…`)
      const measured = await measure(corpus, dir, target, startupMs)
      rows.push(...(target > 0 ? measured : measured.filter((row) => row.measure.includes('peak RSS'))))
    }
    if (FIRST_OPEN_SESSIONS > 0) {
      const history = settled(claudeHistory(dir, workspace, FIRST_OPEN_SESSIONS))
      console.error(`measuring the first open of ${history.name} (${formatBytes(history.bytes)}) in Chromium…`)
      const bare = run<{ ms: number; lines: number }>(['bench/import/bare-parse.mjs', ...history.files]).result
      rows.push(...(await measureFirstOpen(history, workspace, join(dir, 'data-first-open'), bare)))
    }
    console.log(renderTable(rows, 'reference (same run)'))
  } finally {
    removeDir(dir)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
