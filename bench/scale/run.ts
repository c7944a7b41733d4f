import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from '../lib/child'
import { envInt } from '../lib/env'
import { makeTempDir, removeDir } from '../lib/files'
import { formatBytes, formatCount } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { CLI, runNode, type ScaleContext } from './context'
import { ensureCorpus } from './corpus'
import { measureFirstScreenOnScale } from './first-screen'
import { measureImport } from './measure-import'
import { measureRecheckFloor } from './measure-recheck-floor'
import { measureSearch } from './measure-search'
import { measureServe } from './measure-serve'
import { measureSessions } from './measure-sessions'
import { measureUsage } from './measure-usage'
import { measureWorkspaces } from './measure-workspaces'

// `npm run bench:scale` (after `npm run build`): a heavy user's history of 50,000 real sessions
// (corpus.ts) imported by the built CLI, then every store-side figure of issue 41 measured on
// it, each beside a reference measured in the same run. `-- --quick` (or
// RETRACE_BENCH_SCALE_SESSIONS=5000) makes a 5,000-session history for CI-sized runs. The
// import measure fills the store the later ones read, so it runs first. RETRACE_BENCH_KEEP=1
// keeps the store. See bench/README.md.

const QUICK = process.argv.includes('--quick')
const SESSIONS = envInt('RETRACE_BENCH_SCALE_SESSIONS', QUICK ? 5000 : 50_000)
const WORKSPACES = envInt('RETRACE_BENCH_SCALE_WORKSPACES', 300, 3)

/** Each measure module: one async function returning its rows. Add a line to add a measure. */
const MEASURES: [string, (ctx: ScaleContext) => Promise<ResultRow[]>][] = [
  ['the first import, re-check and store size', measureImport],
  ["the re-check's floor (a stat of every file)", measureRecheckFloor],
  ['workspaces.listAll', measureWorkspaces],
  ['the first screen in Chromium', measureFirstScreenOnScale],
  ['sessions.list / sessions.tree', measureSessions],
  ['search', measureSearch],
  ['usage against ccusage', measureUsage],
  ['retrace serve, idle', measureServe]
]

async function main(): Promise<void> {
  if (!existsSync(join(projectRoot(), 'out/main/cli.js'))) throw new Error('The bench runs the built CLI: run `npm run build` first.')
  console.error(`making (or reusing) the corpus of ${formatCount(SESSIONS)} sessions in ${WORKSPACES} workspaces…`)
  const corpus = ensureCorpus({ sessions: SESSIONS, workspaces: WORKSPACES })
  console.error(`  ${formatBytes(corpus.bytes)}, ${formatCount(corpus.messages)} messages, under ${corpus.home}`)
  // The history is on the disk already, as a user's is: its write-back must not share the measured seconds.
  spawnSync('sync')
  const dir = makeTempDir()
  try {
    const dataDir = join(dir, 'data')
    mkdirSync(dataDir)
    const startupMs = Math.min(...[0, 1, 2].map(() => runNode<unknown>([CLI, '--version']).ms))
    const ctx: ScaleContext = { corpus, dataDir, startupMs }
    const rows: ResultRow[] = []
    for (const [name, measure] of MEASURES) {
      console.error(`measuring ${name}…`)
      rows.push(...(await measure(ctx)))
    }
    const size = `${formatCount(corpus.sessions)} sessions (${formatCount(corpus.claudeSessions)} Claude Code, ${formatCount(corpus.codexSessions)} Codex), ${formatCount(corpus.workspaces)} workspaces, ${formatBytes(corpus.bytes)}`
    console.log(`History: ${size}\n`)
    console.log(renderTable(rows, 'reference (same run)'))
  } finally {
    if (process.env.RETRACE_BENCH_KEEP === '1') console.error(`kept the store in ${dir}`)
    else removeDir(dir)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
