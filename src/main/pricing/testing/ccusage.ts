import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { FIXTURES } from '../../sources/testing/claude-home'

/** ccusage's launcher as the devDependency installs it, or `CCUSAGE_BIN`; null when neither is there. */
export function ccusageBin(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [env.CCUSAGE_BIN, resolve(__dirname, '../../../../node_modules/.bin/ccusage')]
  return candidates.find((path): path is string => path !== undefined && path !== '' && existsSync(path)) ?? null
}

/** ccusage's `daily --json` totals (ccusage 20's field names). */
export interface CcusageTotals {
  inputTokens: number
  outputTokens: number
  cacheCreationTokens: number
  cacheReadTokens: number
  totalTokens: number
  totalCost: number
}

/**
 * Run `ccusage daily --offline --json` on a Claude Code config folder alone: HOME is an empty
 * folder, so no other agent's history (ccusage 20 reads every agent it finds) is counted.
 */
export function ccusageDaily(bin: string, claudeConfigDir: string, emptyHome: string): { daily: unknown[]; totals: CcusageTotals } {
  const run = spawnSync(bin, ['daily', '--offline', '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '', HOME: emptyHome, CLAUDE_CONFIG_DIR: claudeConfigDir, CODEX_HOME: join(emptyHome, 'no-codex'), TZ: process.env.TZ ?? 'UTC' }
  })
  if (run.status !== 0) throw new Error(`ccusage failed (${run.status}): ${run.stderr}`)
  return JSON.parse(run.stdout) as { daily: unknown[]; totals: CcusageTotals }
}

/** The fixture sets: those whose every usage line has a requestId, and one (a Bedrock proxy's) whose lines have none. */
export type FixtureSet = 'with-request-ids' | 'without-request-ids'

/**
 * A Claude Code config folder holding real sessions of fixtures/claude-code as Claude Code lays
 * them out (`projects/<folder>/<session>.jsonl`, with their sub-agents). Left out: the
 * `-experiments-worktrees` folder, whose sessions record a relative cwd (anonymised), which
 * Retrace refuses as a workspace (so never stores), and the sets that repeat another's files.
 */
export function fixtureClaudeConfig(root: string, set: FixtureSet): string {
  const projects = join(root, 'projects')
  mkdirSync(projects, { recursive: true })
  const copyProjects = (dir: string): void => {
    for (const name of readdirSync(join(FIXTURES, 'claude-code', dir))) {
      const from = join(FIXTURES, 'claude-code', dir, name)
      if (name.startsWith('-') && name !== '-experiments-worktrees' && statSync(from).isDirectory()) cpSync(from, join(projects, name), { recursive: true })
    }
  }
  if (set === 'without-request-ids') {
    copyProjects('codemie')
    return root
  }
  copyProjects('claude-code-log')
  cpSync(join(FIXTURES, 'claude-code/spotter/projects-dir'), join(projects, '-spotter-projects-dir'), { recursive: true })
  return root
}

/** Token totals of Claude Code files, as ccusage names them. */
export interface ClaudeTokens {
  inputTokens: number
  outputTokens: number
  cacheCreationTokens: number
  cacheReadTokens: number
}

/**
 * The tokens of every `projects/**\/*.jsonl` under `root`, counted by one of two rules:
 * - `ccusage` (what ccusage 20.0.24 does, found by running it on made-up lines): a line whose
 *   message id and requestId were both seen counts once over every file, as the line with the
 *   most output tokens; a line without a requestId counts every time. A sub-agent's response
 *   streamed into its parent's file (a `progress` line of `agent_progress`) counts too, by the
 *   same key, so once with the sub-agent's own file's line.
 * - `per-response` (Retrace's, docs/formats.md): the lines of one response (one message id in a
 *   file) count once, each field at its largest (input and cache final from the first line,
 *   output growing to the last), with or without a requestId; a sub-agent's responses are
 *   counted from its own file, not from the progress lines in its parent's.
 */
export function claudeTokens(root: string, rule: 'ccusage' | 'per-response'): ClaudeTokens {
  const total: ClaudeTokens = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 }
  const kept = new Map<string, ClaudeTokens>()
  const add = (tokens: ClaudeTokens): void => {
    for (const key of Object.keys(total) as (keyof ClaudeTokens)[]) total[key] += tokens[key]
  }
  for (const file of jsonlFiles(join(root, 'projects'))) {
    const perResponse = new Map<string, ClaudeTokens>()
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const entry = usageLine(line)
      if (!entry || (entry.progress && rule === 'per-response')) continue
      if (rule === 'ccusage') {
        if (entry.messageId === null || entry.requestId === null) add(entry.tokens)
        else {
          const key = `${entry.messageId}:${entry.requestId}`
          const before = kept.get(key)
          if (!before || entry.tokens.outputTokens > before.outputTokens) kept.set(key, entry.tokens)
        }
      } else if (entry.messageId === null) add(entry.tokens)
      else perResponse.set(entry.messageId, largest(perResponse.get(entry.messageId), entry.tokens))
    }
    for (const tokens of perResponse.values()) add(tokens)
  }
  for (const tokens of kept.values()) add(tokens)
  return total
}

function largest(a: ClaudeTokens | undefined, b: ClaudeTokens): ClaudeTokens {
  if (!a) return b
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cacheCreationTokens: Math.max(a.cacheCreationTokens, b.cacheCreationTokens),
    cacheReadTokens: Math.max(a.cacheReadTokens, b.cacheReadTokens)
  }
}

interface UsageLine {
  messageId: string | null
  requestId: string | null
  tokens: ClaudeTokens
  /** A sub-agent's response streamed into its parent's file (`agent_progress`): ccusage counts it, Retrace's importer does not. */
  progress: boolean
}

interface RawMessage {
  id?: unknown
  usage?: Record<string, unknown>
}

interface RawLine {
  type?: unknown
  requestId?: unknown
  message?: RawMessage
  data?: { type?: unknown; message?: { requestId?: unknown; message?: RawMessage } }
}

function usageLine(line: string): UsageLine | null {
  if (!line.includes('"usage"')) return null
  let entry: RawLine
  try {
    entry = JSON.parse(line) as RawLine
  } catch {
    return null
  }
  const progress = entry.type === 'progress' && entry.data?.type === 'agent_progress'
  const message = progress ? entry.data?.message?.message : entry.message
  const requestId = progress ? entry.data?.message?.requestId : entry.requestId
  const usage = message?.usage
  if (!usage || typeof usage !== 'object') return null
  const count = (key: string): number => (typeof usage[key] === 'number' ? usage[key] : 0)
  return {
    messageId: typeof message?.id === 'string' ? message.id : null,
    requestId: typeof requestId === 'string' ? requestId : null,
    progress,
    tokens: {
      inputTokens: count('input_tokens'),
      outputTokens: count('output_tokens'),
      cacheCreationTokens: count('cache_creation_input_tokens'),
      cacheReadTokens: count('cache_read_input_tokens')
    }
  }
}

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}
