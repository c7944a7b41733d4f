import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createRuntime, type Runtime } from '../src/main/runtime/runtime'
import { lastActivityOf } from '../src/main/sources/last-activity'
import { discoverRecordedWorkspaces } from '../src/main/sources/recorded-workspaces'
import { encodeProjectFolder } from '../src/main/sources/claude-code/project-folder'
import { FIXTURES } from '../src/main/sources/testing/claude-home'
import { makeTempDir, removeDir } from './lib/files'
import { formatCount, formatMs } from './lib/stats'
import { renderTable, type ResultRow } from './lib/table'

// `vite-node bench/workspaces.ts [FILES]`: how long `workspaces.listAll` (`retrace workspaces`, the
// first screen) takes on a big ~/.claude: FILES session files (default 2,000) in 300 project
// folders, each a real fixture session with its cwd rewritten, of four sizes, imported first
// (RETRACE_BENCH_WORKSPACES_IMPORT=0 skips that). The reference is what main's listing did on
// every call, measured in the same run: discovery of every file (its head) and a 64 KiB tail of
// each. The page cache decides the file reads: the run after writing is as warm as the machine
// allows (dropping the cache needs root and disturbs everyone). See bench/README.md.

const FILES = Number(process.argv[2] ?? 2000)
const PROJECTS = 300
const IMPORT = process.env.RETRACE_BENCH_WORKSPACES_IMPORT !== '0'
const WARM_TARGET_MS = 200
const COLD_TARGET_MS = 2000

/** Real sessions of four sizes, the biggest cut to 1 MB at a line end; share of the files each. */
function samples(): { text: string; cwd: string; share: number }[] {
  const spotter = readFileSync(join(FIXTURES, 'claude-code/spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'), 'utf8')
  const cut = spotter.slice(0, spotter.lastIndexOf('\n', 1024 * 1024) + 1)
  const small = (name: string) => readFileSync(join(FIXTURES, 'claude-code/spotter', name), 'utf8')
  return [
    { text: cut, cwd: '/home/USER/projects/spotter-worktrees/spotter-4te', share: 0.05 },
    { text: small('subagent.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.2 },
    { text: small('tool_heavy.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.375 },
    { text: small('short.jsonl'), cwd: '/home/marco/projects/spotter', share: 0.375 }
  ]
}

function generate(root: string): number {
  const kinds = samples()
  let bytes = 0
  for (let i = 0; i < FILES; i++) {
    const project = `/home/someone/work/project-${i % PROJECTS}`
    const folder = join(root, 'projects', encodeProjectFolder(project))
    mkdirSync(folder, { recursive: true })
    let pick = (i * 0.6180339887) % 1
    const kind = kinds.find((candidate) => (pick -= candidate.share) < 0) ?? kinds[kinds.length - 1]
    if (!kind) continue
    const text = kind.text.replaceAll(`"cwd":"${kind.cwd}"`, `"cwd":"${project}"`)
    const id = `${String(i).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`
    writeFileSync(join(folder, `${id}.jsonl`), text)
    bytes += Buffer.byteLength(text)
  }
  return bytes
}

async function scanEveryFile(env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now()
  const byCwd = await discoverRecordedWorkspaces(env)
  for (const files of byCwd.values()) for (const { file } of files) lastActivityOf(file.path)
  return performance.now() - started
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function main(): Promise<void> {
  const dir = makeTempDir()
  try {
    const claude = join(dir, 'claude')
    const bytes = generate(claude)
    const env = { HOME: dir, CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(dir, 'none') }
    const open = () => createRuntime({ dataDir: join(dir, 'data'), host: { binding: 'web' }, version: 'bench', env, followImports: false })
    const timed = async (rt: Runtime, refresh: 'wait' | 'background') => {
      const started = performance.now()
      const { items } = await rt.handlers['workspaces.listAll']({ refresh })
      return { ms: performance.now() - started, items }
    }
    const scanMs = await scanEveryFile(env)
    const first = open()
    await first.ready
    if (IMPORT) await first.imports.importAll({ markOpened: false })
    const sessions = first.store.workspaceListing.listed().reduce((sum, workspace) => sum + workspace.sessionCount, 0)
    const neverFilled = await timed(first, 'background')
    let started = performance.now()
    await first.recorded.refresh()
    const fillMs = performance.now() - started
    const warm: number[] = []
    let listed = 0
    for (let i = 0; i < 5; i++) {
      const call = await timed(first, 'background')
      warm.push(call.ms)
      listed = call.items.length
    }
    started = performance.now()
    await first.recorded.refresh()
    const unchangedMs = performance.now() - started
    first.close()
    await first.closed
    started = performance.now()
    const later = open()
    await later.ready
    const cold = await timed(later, 'background')
    const coldMs = performance.now() - started
    later.close()
    await later.closed

    const reference = `scan of every file (main's listing) ${formatMs(scanMs)} ms`
    const corpus = `${formatCount(FILES)} files, ${(bytes / 1024 / 1024).toFixed(0)} MiB, ${listed} workspaces${IMPORT ? `, ${formatCount(sessions)} sessions imported` : ', nothing imported'}`
    const row = (measure: string, ms: number, target: number | null, n = 1): ResultRow => ({
      measure,
      retrace: `${formatMs(ms)} ms`,
      reference,
      target: target === null ? '(in the background)' : `≤ ${formatMs(target)} ms`,
      met: target === null ? null : ms <= target * 1.1,
      n: String(n)
    })
    console.log(corpus)
    console.log(renderTable([
      row('workspaces.listAll, store opened, index never filled (answers from the store)', neverFilled.ms, COLD_TARGET_MS),
      row('the index filled the first time (every head and tail not imported)', fillMs, null),
      row('workspaces.listAll once warm (median)', median(warm), WARM_TARGET_MS, warm.length),
      row('a refresh that finds nothing changed (stats every file)', unchangedMs, null),
      row('cold start: store opened in a new runtime + first workspaces.listAll', coldMs, COLD_TARGET_MS),
      row('  of which the workspaces.listAll', cold.ms, COLD_TARGET_MS)
    ]))
  } finally {
    removeDir(dir)
  }
}

void main()
