import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from '../lib/child'
import { makeTempDir, removeDir } from '../lib/files'
import { formatBytes, formatCount } from '../lib/stats'
import { renderTable } from '../lib/table'
import { ensureCorpus } from './corpus'
import { measureUsage } from './measure-usage'

// `npm run bench:usage` (after `npm run build`): the usage measure alone, on the scale corpus of
// RETRACE_BENCH_SCALE_SESSIONS sessions (default 5,000; 50000 for the figure), imported
// by the built CLI first (not timed here: bench:scale times the import).

const CLI = 'bin/retrace.js'

async function main(): Promise<void> {
  if (!existsSync(join(projectRoot(), 'out/main/cli.js'))) throw new Error('The bench runs the built CLI: run `npm run build` first.')
  const sessions = Number(process.env.RETRACE_BENCH_SCALE_SESSIONS ?? 5000)
  const corpus = ensureCorpus({ sessions, workspaces: 300 })
  const dir = makeTempDir()
  try {
    const dataDir = join(dir, 'data')
    mkdirSync(dataDir)
    console.error(`importing ${formatCount(corpus.sessions)} sessions (${formatBytes(corpus.bytes)})…`)
    const imported = spawnSync(process.execPath, [CLI, 'import', '--all', '--data-dir', dataDir], { cwd: projectRoot(), encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1024 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', ...corpus.env, RETRACE_BACKGROUND_IMPORT: '0' } })
    if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
    console.log(`History: ${formatCount(corpus.sessions)} sessions (${formatCount(corpus.claudeSessions)} Claude Code, ${formatCount(corpus.codexSessions)} Codex), ${formatBytes(corpus.bytes)}\n`)
    console.log(renderTable(await measureUsage({ corpus, dataDir }), 'reference (same run)'))
  } finally {
    removeDir(dir)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
