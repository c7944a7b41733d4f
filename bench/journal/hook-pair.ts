import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { AgentConnectionsService } from '../../src/main/agent-hooks/connections-service'
import { hookSocketPath } from '../../src/main/agent-hooks/hook-handoff'
import { readHookRuns } from '../../src/main/agent-hooks/hook-log'
import { createRng } from '../lib/prng'
import type { ResultRow } from '../lib/table'
import { editContent, type TextFactory } from './content'
import { flushDisk } from './disk'
import { pickFiles } from './rounds'
import { startServe } from './serve'
import type { ShadowGit } from './shadow-git'
import { formatSamples, median, paired, type Paired } from './timing'
import type { Workspace } from './workspace'

// What an agent's hooks cost a turn: `retrace checkpoint begin` and `end` as Claude Code runs
// them — the commands `retrace hooks install` wrote, each a process of its own started by
// `sh -c` with a bare environment, Claude Code's JSON on stdin — around a turn that edits files,
// beside the shadow repository's `git add -A` + `commit` of the same change. Both ways in the
// same run, on the same data folder and session, alternating round by round: with a `retrace
// serve` running on that folder (the hooks hand it their turns over hooks.sock), and in the
// hooks' own processes (the socket moved aside meanwhile, so they find none, as when no Retrace
// is running; the server sits idle). Needs the built CLI.

const ROOT = join(__dirname, '..', '..')

type Way = 'hook' | 'app'

/** One way's rounds: the pair, its two halves, and the part of each pair in the checkpoint itself (the hook log's `ms`). */
export interface WayResult {
  pair: Paired
  begin: number[]
  end: number[]
  inCheckpoint: number[]
}

export interface HookPairResult {
  inProcess: WayResult
  served: WayResult
  /** The first begin on an empty store (the whole workspace read once), in the hook's process. */
  firstBegin: number
  /** The first pair the server took, on a newly started server (no edits): not in the rounds. */
  firstServed: number
  /** `retrace --version` and `node -e ''` as processes: the start-up every hook pays, with and without the CLI. */
  startup: number
  nodeStartup: number
}

const fastestOf3 = (args: string[]) =>
  Math.min(
    ...[0, 1, 2].map(() => {
      const started = performance.now()
      spawnSync(process.execPath, args)
      return performance.now() - started
    })
  )

export async function measureHookPair(copies: { retrace: Workspace; git: Workspace }, git: ShadowGit, dir: string, options: { edits: number; rounds: number; seed: number; text: TextFactory; log: (line: string) => void }): Promise<HookPairResult | null> {
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
  const run = (event: string, input: object, way: Way): number => {
    flushDisk()
    const started = performance.now()
    const result = spawnSync('env', ['-i', 'PATH=/usr/bin:/bin', 'sh', '-c', command(event)], { cwd: dir, input: JSON.stringify({ session_id: session, cwd: copies.retrace.root, hook_event_name: event, ...input }), encoding: 'utf8' })
    const ms = performance.now() - started
    if (result.status !== 0 || result.stdout !== '') throw new Error(`The ${event} hook exited ${result.status} with stdout ${JSON.stringify(result.stdout)}: ${result.stderr}`)
    const last = readHookRuns(data).at(-1)
    if (last?.error) throw new Error(`The ${event} hook failed: ${last.error}`)
    if ((last?.via ?? 'hook') !== way) throw new Error(`The ${event} hook was captured by the ${last?.via}, not the ${way}`)
    return ms
  }
  const socket = hookSocketPath(data)
  if (!socket) throw new Error(`The bench's data folder's path is too long for a socket: ${data}`)
  const aside = `${socket}.aside`
  const result: HookPairResult = { inProcess: emptyWay(), served: emptyWay(), firstBegin: 0, firstServed: 0, startup: fastestOf3([join(ROOT, 'bin', 'retrace.js'), '--version']), nodeStartup: fastestOf3(['-e', '']) }

  // The first begin reads the whole workspace (a store's first capture); its end closes an empty turn.
  result.firstBegin = run('UserPromptSubmit', { prompt: 'bench turn 0' }, 'hook')
  run('Stop', { stop_hook_active: false }, 'hook')
  const server = await startServe(data, env)
  try {
    result.firstServed = run('UserPromptSubmit', { prompt: 'first turn the server takes' }, 'app') + run('Stop', { stop_hook_active: false }, 'app')
    let turn = 0
    for (let round = 1; round <= options.rounds; round++) {
      // Alternating which way goes first, so neither always follows the other.
      for (const way of round % 2 === 1 ? (['hook', 'app'] as const) : (['app', 'hook'] as const)) {
        turn++
        if (way === 'hook') renameSync(socket, aside)
        try {
          const sample = pairOf(turn, way)
          const into = way === 'hook' ? result.inProcess : result.served
          into.pair.retrace.push(sample.begin + sample.end)
          into.begin.push(sample.begin)
          into.end.push(sample.end)
          into.inCheckpoint.push(sample.inCheckpoint)
          into.pair.git.push(sample.git)
          options.log(`  round ${round}/${options.rounds}, ${way === 'app' ? 'served' : 'in-process'}: begin ${sample.begin.toFixed(0)} ms + end ${sample.end.toFixed(0)} ms (in the checkpoint ${sample.inCheckpoint} ms) / git ${sample.git.toFixed(0)} ms`)
        } finally {
          if (way === 'hook') renameSync(aside, socket)
        }
      }
    }
  } finally {
    await server.stop()
  }
  return result

  function pairOf(turn: number, way: Way): { begin: number; end: number; inCheckpoint: number; git: number } {
    git.checkpoint() // untimed: git's "before" of the turn, as Retrace's begin is
    const begin = run('UserPromptSubmit', { prompt: `bench turn ${turn}` }, way)
    const rng = createRng(options.seed * 7000 + turn)
    for (const file of pickFiles(rng, copies.retrace.files, options.edits)) {
      const content = editContent(file.kind, readFileSync(join(copies.retrace.root, file.path)), rng, options.text, 9000 + turn)
      for (const copy of [copies.retrace, copies.git]) writeFileSync(join(copy.root, file.path), content)
    }
    const end = run('Stop', { stop_hook_active: false }, way)
    const runs = readHookRuns(data).slice(-2)
    if (runs[1]?.changes !== options.edits) throw new Error(`The end hook journaled ${runs[1]?.changes} changes for ${options.edits} edited files`)
    flushDisk()
    const gitStarted = performance.now()
    git.checkpoint()
    return { begin, end, inCheckpoint: runs.reduce((sum, logged) => sum + logged.ms, 0), git: performance.now() - gitStarted }
  }
}

const emptyWay = (): WayResult => ({ pair: paired(), begin: [], end: [], inCheckpoint: [] })

export function hookPairRows(result: HookPairResult, edits: number, files: number): ResultRow[] {
  const n = `${result.inProcess.pair.retrace.length}+${result.served.pair.retrace.length}+${result.inProcess.pair.git.length + result.served.pair.git.length}`
  const pair = (samples: WayResult) => `${formatSamples(samples.pair.retrace)}: begin ${formatSamples(samples.begin)} + end ${formatSamples(samples.end)}; ${(median(samples.pair.retrace) / median(samples.pair.git)).toFixed(2)}× git`
  const git = [...result.inProcess.pair.git, ...result.served.pair.git]
  return [
    {
      measure: `a turn's hooks as Claude Code runs them (\`checkpoint begin\` + \`end\`, 2 processes, ${edits} edited files of ${files.toLocaleString('en-US')}), handed to a running \`retrace serve\``,
      retrace: pair(result.served),
      reference: `${formatSamples(git)} (\`add -A\` + \`commit\` of the same change)`,
      target: '(none set)',
      met: null,
      n
    },
    {
      measure: '… the same in the hooks\' own processes (no Retrace running)',
      retrace: pair(result.inProcess),
      reference: '(the same)',
      target: '(none set)',
      met: null,
      n
    },
    {
      measure: '… of which in the checkpoint itself (the hook log): served · in-process',
      retrace: `${formatSamples(result.served.inCheckpoint)} · ${formatSamples(result.inProcess.inCheckpoint)}`,
      reference: `a process start: \`retrace --version\` ${formatSamples([result.startup])}, \`node -e ''\` ${formatSamples([result.nodeStartup])} (fastest of 3)`,
      target: '(none set)',
      met: null,
      n
    }
  ]
}
