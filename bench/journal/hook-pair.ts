import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { AgentConnectionsService } from '../../src/main/agent-hooks/connections-service'
import { readHookRuns } from '../../src/main/agent-hooks/hook-log'
import { createRng } from '../lib/prng'
import type { ResultRow } from '../lib/table'
import { editContent, type TextFactory } from './content'
import { flushDisk } from './disk'
import { pickFiles } from './rounds'
import type { ShadowGit } from './shadow-git'
import { formatSamples, median, paired, type Paired } from './timing'
import type { Workspace } from './workspace'

// What an agent's hooks cost a turn: `retrace checkpoint begin` and `end` as Claude Code runs
// them — the commands `retrace hooks install` wrote, each a process of its own started by
// `sh -c` with a bare environment, Claude Code's JSON on stdin — around a turn that edits files,
// beside the shadow repository's `git add -A` + `commit` of the same change. Needs the built CLI.

const ROOT = join(__dirname, '..', '..')

export interface HookPairResult {
  /** Per round: begin + end (the two processes), and git's checkpoint of the same change. */
  pair: Paired
  begin: number[]
  end: number[]
  /** The part of each pair spent in the checkpoint itself (the hook log's `ms`): the rest is process start-up. */
  inProcess: number[]
  /** The first begin on an empty store: the whole workspace read once. */
  firstBegin: number
  /** `retrace --version` as a process: the start-up every hook pays. */
  startup: number
}

export function measureHookPair(copies: { retrace: Workspace; git: Workspace }, git: ShadowGit, dir: string, options: { edits: number; rounds: number; seed: number; text: TextFactory; log: (line: string) => void }): HookPairResult | null {
  if (!existsSync(join(ROOT, 'out', 'main', 'cli.js'))) {
    options.log('  skipped: the CLI is not built (npm run build)')
    return null
  }
  const home = join(dir, 'hook-home')
  const data = join(dir, 'hook-data')
  mkdirSync(join(home, '.claude'), { recursive: true })
  const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') }
  new AgentConnectionsService({ dataDir: data, env }).install({ agents: ['claude-code'], scope: 'user', workspace: copies.retrace.root, hooks: true, mcp: false, dryRun: false })
  const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }
  const command = (event: string) => settings.hooks[event]?.[0]?.hooks[0]?.command ?? ''
  const session = 'b3f1c0de-0000-4000-8000-000000000bench'
  const run = (event: string, input: object): number => {
    flushDisk()
    const started = performance.now()
    const result = spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', 'sh', '-c', command(event)], { cwd: dir, input: JSON.stringify({ session_id: session, cwd: copies.retrace.root, hook_event_name: event, ...input }), encoding: 'utf8' })
    const ms = performance.now() - started
    if (result.status !== 0 || result.stdout !== '') throw new Error(`The ${event} hook exited ${result.status} with stdout ${JSON.stringify(result.stdout)}: ${result.stderr}`)
    const last = readHookRuns(data).at(-1)
    if (last?.error) throw new Error(`The ${event} hook failed: ${last.error}`)
    return ms
  }
  const startups = [0, 1, 2].map(() => {
    const started = performance.now()
    spawnSync(process.execPath, [join(ROOT, 'bin', 'retrace.js'), '--version'])
    return performance.now() - started
  })

  const result: HookPairResult = { pair: paired(), begin: [], end: [], inProcess: [], firstBegin: 0, startup: Math.min(...startups) }
  // The first begin reads the whole workspace (a store's first capture); its end closes an empty turn.
  result.firstBegin = run('UserPromptSubmit', { prompt: 'bench turn 0' })
  run('Stop', { stop_hook_active: false })
  for (let round = 1; round <= options.rounds; round++) {
    git.checkpoint() // untimed: git's "before" of the turn, as Retrace's begin is
    const begin = run('UserPromptSubmit', { prompt: `bench turn ${round}` })
    const rng = createRng(options.seed * 7000 + round)
    for (const file of pickFiles(rng, copies.retrace.files, options.edits)) {
      const content = editContent(file.kind, readFileSync(join(copies.retrace.root, file.path)), rng, options.text, 9000 + round)
      for (const copy of [copies.retrace, copies.git]) writeFileSync(join(copy.root, file.path), content)
    }
    const end = run('Stop', { stop_hook_active: false })
    const runs = readHookRuns(data).slice(-2)
    if (runs[1]?.changes !== options.edits) throw new Error(`The end hook journaled ${runs[1]?.changes} changes for ${options.edits} edited files`)
    flushDisk()
    const gitStarted = performance.now()
    git.checkpoint()
    result.pair.git.push(performance.now() - gitStarted)
    result.pair.retrace.push(begin + end)
    result.begin.push(begin)
    result.end.push(end)
    result.inProcess.push(runs.reduce((sum, logged) => sum + logged.ms, 0))
    options.log(`  round ${round}/${options.rounds}: begin ${begin.toFixed(0)} ms + end ${end.toFixed(0)} ms (in the checkpoint ${result.inProcess.at(-1)} ms) / git ${result.pair.git.at(-1)?.toFixed(0)} ms`)
  }
  return result
}

export function hookPairRows(result: HookPairResult, edits: number, files: number): ResultRow[] {
  const n = `${result.pair.retrace.length}+${result.pair.git.length}`
  return [
    {
      measure: `a turn's hooks as Claude Code runs them (\`checkpoint begin\` + \`end\`, 2 processes, ${edits} edited files of ${files.toLocaleString('en-US')})`,
      retrace: `${formatSamples(result.pair.retrace)}: begin ${formatSamples(result.begin)} + end ${formatSamples(result.end)}; ${(median(result.pair.retrace) / median(result.pair.git)).toFixed(2)}× git`,
      reference: `${formatSamples(result.pair.git)} (\`add -A\` + \`commit\` of the same change)`,
      target: '(none set)',
      met: null,
      n
    },
    {
      measure: '… of which in the checkpoint itself (the hook log), the rest being two process start-ups',
      retrace: formatSamples(result.inProcess),
      reference: `\`retrace --version\` ${formatSamples([result.startup])} (fastest of 3)`,
      target: '(none set)',
      met: null,
      n
    }
  ]
}
