import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createDispatcher } from '../src/main/rpc/dispatcher'
import { createRuntime } from '../src/main/runtime/runtime'
import { envInt } from './lib/env'
import { makeTempDir, removeDir } from './lib/files'
import { createRng, type Rng } from './lib/prng'
import { repeatAsync, repeatSync, type Timing } from './lib/stats'
import { renderTable } from './lib/table'

// `npm run bench:blame`: `files.blame` of a file with many recorded versions, beside `git blame`
// of the same versions committed one by one into a git repository, in the same run.

const LINES = envInt('RETRACE_BENCH_BLAME_LINES', 5000)
const VERSIONS = envInt('RETRACE_BENCH_BLAME_VERSIONS', 200)
const N = envInt('RETRACE_BENCH_BLAME_N', 9)
const TARGET_MS = 200
const SOURCES = ['claude-code', 'codex', 'gemini', 'native']

const log = (line: string): void => void process.stderr.write(`${line}\n`)

/** A line of plausible code, different every time. */
function codeLine(rng: Rng, n: number): string {
  const indent = '  '.repeat(rng.int(0, 3))
  if (rng.chance(0.15)) return ''
  if (rng.chance(0.15)) return `${indent}}`
  return `${indent}const v${n} = f(${rng.int(0, 99999)}, ${'x'.repeat(rng.int(0, 30))})`
}

/** The next version: a few scattered lines changed, one sometimes added or removed, as an agent's turn does. */
function edit(rng: Rng, lines: string[], version: number): string[] {
  const next = [...lines]
  const edits = rng.int(2, 6)
  for (let i = 0; i < edits; i += 1) {
    const at = rng.int(0, next.length - 1)
    const what = rng.next()
    if (what < 0.6) next[at] = codeLine(rng, version * 100 + i)
    else if (what < 0.85) next.splice(at, 0, codeLine(rng, version * 100 + i))
    else next.splice(at, 1)
  }
  return next
}

const text = (lines: string[]): string => `${lines.join('\n')}\n`

function git(cwd: string, args: string[]): string {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' }
  const config = ['-c', 'user.name=Bench', '-c', 'user.email=bench@retrace.invalid', '-c', 'commit.gpgsign=false', '-c', 'gc.auto=0']
  const result = spawnSync('git', [...config, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`)
  return result.stdout
}

const ms = (t: Timing): string => `${t.median.toFixed(1)} ms (p95 ${t.p95.toFixed(1)})`

async function main(): Promise<void> {
  const dir = makeTempDir()
  log(`Blame bench: ${LINES} lines, ${VERSIONS} versions, N=${N}; Node ${process.version}, ${cpus().length} CPUs; data in ${dir}`)
  const runtime = createRuntime({ dataDir: join(dir, 'data'), host: { binding: 'web' }, version: 'bench' })
  try {
    const root = join(dir, 'workspace')
    const repo = join(dir, 'git')
    mkdirSync(root)
    mkdirSync(repo)
    git(repo, ['init', '-q'])
    const rng = createRng(28)
    let lines = Array.from({ length: LINES }, (_, n) => codeLine(rng, n))
    const workspaceId = runtime.store.workspaces.open(root, 'workspace')
    const writers = SOURCES.map((source, index) => runtime.recorder.startSession({ workspaceId, source, title: `${source} session ${index + 1}` }))

    // Version 1 creates the file; each next one is a turn of one of four sessions (four sources) editing a few lines.
    const started = performance.now()
    let before: Buffer | null = null
    for (let version = 1; version <= VERSIONS; version += 1) {
      if (version > 1) lines = edit(rng, lines, version)
      const after = Buffer.from(text(lines))
      const writer = writers[version % writers.length]
      if (!writer) throw new Error('no writer')
      writer.append({ role: 'user', content: `Turn ${version}: change a few lines of big.ts` })
      writer.recordFileChange({ path: 'big.ts', before, after })
      writer.closeTurn()
      writeFileSync(join(repo, 'big.ts'), after)
      git(repo, ['add', 'big.ts'])
      git(repo, ['commit', '-q', '-m', `version ${version}`])
      before = after
    }
    writeFileSync(join(root, 'big.ts'), before ?? '')
    log(`  ${VERSIONS} versions journaled and committed in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    const dispatch = createDispatcher<null>({ handlers: runtime.handlers, authorize: () => null })
    const blame = async () => {
      const result = await dispatch('files.blame', { workspaceId, path: 'big.ts' }, null)
      if (!result.ok) throw new Error(result.error.message)
      return result.data as { lines: string[]; runs: unknown[] }
    }
    const check = await blame()
    if (check.lines.length !== lines.length) throw new Error(`blame has ${check.lines.length} lines, the file ${lines.length}`)
    const retrace = await repeatAsync(blame, { n: N, warmup: 2 })
    const gitBlame = repeatSync(() => git(repo, ['blame', '--porcelain', 'big.ts']), { n: N, warmup: 2 })
    log(`  ${check.runs.length} runs of origins`)
    console.log(
      renderTable(
        [
          {
            measure: `blame of a ${LINES.toLocaleString('en')}-line file (${Math.round(Buffer.byteLength(text(lines)) / 1024)} KiB) with ${VERSIONS} versions (\`files.blame\`, 4 sessions)`,
            retrace: ms(retrace),
            reference: `\`git blame --porcelain\` of the same ${VERSIONS} commits: ${ms(gitBlame)}`,
            target: `≤ ${TARGET_MS} ms`,
            met: retrace.median <= TARGET_MS,
            n: String(retrace.n)
          }
        ],
        'reference (same run)'
      )
    )
  } finally {
    runtime.close()
    if (process.env.RETRACE_BENCH_KEEP !== '1') removeDir(dir)
  }
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
