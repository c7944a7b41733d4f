import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { AllUsage } from '../../src/shared/contract'
import { ccusageBin, claudeTokens, type ClaudeTokens } from '../../src/main/pricing/testing/ccusage'
import { createDispatcher } from '../../src/main/rpc/dispatcher'
import { createRuntime } from '../../src/main/runtime/runtime'
import { projectRoot } from '../lib/child'
import { makeTempDir, removeDir } from '../lib/files'
import { formatCount, formatTiming, repeatAsync, summarize, type Timing } from '../lib/stats'
import type { ResultRow } from '../lib/table'
import type { ScaleCorpus } from './corpus'

// The usage report over every session against ccusage reading the same files, in the same run
// (issue 41 §1): `ccusage daily --offline --json` on the corpus's home, and `retrace usage
// --json` (a process each, start-up included) on the store the import filled; token totals
// compared rule by rule (pricing/testing/ccusage.ts). `npm run bench:usage` runs it alone
// (usage-run.ts).

/** What it needs of the scale bench's context: the corpus and the store its import filled. */
export interface UsageBenchContext {
  corpus: ScaleCorpus
  dataDir: string
}

const RUNS = 3
const CLI = 'bin/retrace.js'

/** Wall time of a process, best taken as the median of RUNS; its stdout parsed as JSON. */
function timedProcess<T>(command: string, args: string[], env: Record<string, string>): { timing: Timing; result: T } {
  const samples: number[] = []
  let out = ''
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const child = spawnSync(command, args, { cwd: projectRoot(), encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env } })
    samples.push(performance.now() - started)
    if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${child.status}): ${child.stderr}`)
    out = child.stdout
  }
  return { timing: summarize(samples), result: JSON.parse(out) as T }
}

interface CcusageJson {
  totals: { inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; totalTokens: number }
}

const tokensText = (t: ClaudeTokens): string => `${formatCount(t.inputTokens)} in / ${formatCount(t.outputTokens)} out / ${formatCount(t.cacheCreationTokens)} cw / ${formatCount(t.cacheReadTokens)} cr`
const same = (a: ClaudeTokens, b: ClaudeTokens): boolean => a.inputTokens === b.inputTokens && a.outputTokens === b.outputTokens && a.cacheCreationTokens === b.cacheCreationTokens && a.cacheReadTokens === b.cacheReadTokens
const fromCcusage = (t: CcusageJson['totals']): ClaudeTokens => ({ inputTokens: t.inputTokens, outputTokens: t.outputTokens, cacheCreationTokens: t.cacheCreationTokens, cacheReadTokens: t.cacheReadTokens })

export async function measureUsage(ctx: UsageBenchContext): Promise<ResultRow[]> {
  const bin = ccusageBin()
  if (bin === null) return [{ measure: 'usage report vs ccusage', retrace: 'n/a', reference: 'ccusage is not installed (npm install)', target: '', met: null, n: '0' }]
  const emptyHome = makeTempDir()
  try {
    const claudeDir = ctx.corpus.env.CLAUDE_CONFIG_DIR ?? join(ctx.corpus.home, '.claude')
    // Every file of the corpus (both agents, as the import read them) for the timing.
    const theirs = timedProcess<CcusageJson>(bin, ['daily', '--offline', '--json'], { HOME: ctx.corpus.home, CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: ctx.corpus.env.CODEX_HOME ?? '' })
    const ours = timedProcess<{ totals: { totalTokens: number } }>(process.execPath, [CLI, 'usage', '--json', '--data-dir', ctx.dataDir], { HOME: '/nonexistent', RETRACE_BACKGROUND_IMPORT: '0' })
    const warm = await inProcess(ctx)
    // Tokens: Claude Code's files alone, counted by ccusage and by each rule over the raw files.
    const claudeOnly = timedProcess<CcusageJson>(bin, ['daily', '--offline', '--json'], { HOME: emptyHome, CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: join(emptyHome, 'none') }).result
    const ccusageRule = claudeTokens(claudeDir, 'ccusage')
    const perResponse = claudeTokens(claudeDir, 'per-response')
    const claudeRow = warm.usage.bySource.find((row) => row.key === 'claude-code')
    const retraceClaude: ClaudeTokens = { inputTokens: claudeRow?.inputTokens ?? 0, outputTokens: claudeRow?.outputTokens ?? 0, cacheCreationTokens: claudeRow?.cacheWriteTokens ?? 0, cacheReadTokens: claudeRow?.cacheReadTokens ?? 0 }
    return [
      {
        measure: `retrace usage --json (process), every session: ${formatCount(ours.result.totals.totalTokens)} tokens`,
        retrace: formatTiming(ours.timing),
        reference: `${formatTiming(theirs.timing)} (ccusage daily --offline --json, same files: ${formatCount(theirs.result.totals.totalTokens)} tokens)`,
        target: '≤ ccusage',
        met: ours.timing.median <= theirs.timing.median * 1.1,
        n: String(RUNS)
      },
      { measure: 'usage.all in a running Retrace (warm)', retrace: formatTiming(warm.timing), reference: `${formatTiming(theirs.timing)} (ccusage, as above)`, target: '≤ ccusage', met: warm.timing.median <= theirs.timing.median * 1.1, n: String(warm.timing.n) },
      {
        measure: "Claude Code tokens, ccusage's rule (message id + requestId, once over every file)",
        retrace: `ccusage: ${tokensText(fromCcusage(claudeOnly.totals))}`,
        reference: `the files by that rule: ${tokensText(ccusageRule)}`,
        target: 'equal',
        met: same(fromCcusage(claudeOnly.totals), ccusageRule),
        n: '1'
      },
      {
        measure: "Claude Code tokens, Retrace's rule (one response of a file once, with or without requestId)",
        retrace: `Retrace: ${tokensText(retraceClaude)}`,
        reference: `the files by that rule: ${tokensText(perResponse)}`,
        target: 'equal',
        met: same(retraceClaude, perResponse),
        n: '1'
      }
    ]
  } finally {
    removeDir(emptyHome)
  }
}

async function inProcess(ctx: UsageBenchContext): Promise<{ timing: Timing; usage: AllUsage }> {
  const runtime = createRuntime({ dataDir: ctx.dataDir, host: { binding: 'web' }, version: 'bench', env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent' }, followImports: false })
  try {
    await runtime.ready
    const dispatch = createDispatcher<null>({ handlers: runtime.handlers, authorize: () => null })
    let usage: AllUsage | null = null
    const timing = await repeatAsync(async () => {
      const result = await dispatch('usage.all', {}, null)
      if (!result.ok) throw new Error(`usage.all failed: ${result.error.message}`)
      usage = result.data as AllUsage
    }, { n: 5, warmup: 1, budgetMs: 60_000 })
    if (usage === null) throw new Error('usage.all never ran')
    return { timing, usage }
  } finally {
    runtime.close()
  }
}
