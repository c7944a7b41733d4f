import { createRng, type Rng } from '../lib/prng'
import type { ContentFactory } from './content'

// The shape of the generated store: which sessions exist and, for each, the exact sequence of
// recorder calls (append, closeTurn, compact). Both writers (the recorder and the bare-insert
// reference) replay this same plan, so they write the same rows.

export interface PlannedUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number
}

export interface PlannedMessage {
  role: 'user' | 'assistant' | 'reasoning' | 'tool_call' | 'tool_result'
  content: string
  toolName?: string
  toolCallId?: string
  toolInput?: Record<string, string | number | boolean>
  isError?: boolean
  model?: string
  usage?: PlannedUsage
  createdAt: number
}

export type Step =
  | { kind: 'append'; message: PlannedMessage }
  | { kind: 'closeTurn' }
  | { kind: 'compact'; summary: string; createdAt: number }

export interface PlannedSession {
  index: number
  title: string
  createdAt: number
  /** Messages this session ends up with (appends + compaction summaries). */
  messageCount: number
  steps: Step[]
}

export interface PlanConfig {
  seed: number
  sessions: number
  messages: number
  /** The one long session (its index and size), for the transcript-depth measure. */
  bigIndex: number
  bigSize: number
}

const START = Date.UTC(2025, 0, 6, 9)
const SESSION_SPACING_MS = 45 * 60_000
/** A long session is compacted every this many messages, as an agent near its context limit would. */
const COMPACT_EVERY = 2500
const MODEL = 'claude-sonnet-4-5'

/** Message count per session: the big one fixed, the others 200–1800 scaled to the exact total. */
export function sessionSizes(config: PlanConfig): number[] {
  const rng = createRng(config.seed)
  const others = config.sessions - 1
  const raw = Array.from({ length: others }, () => rng.int(200, 1800))
  const budget = config.messages - config.bigSize
  const rawTotal = raw.reduce((sum, n) => sum + n, 0)
  const sizes = raw.map((n) => Math.max(1, Math.floor((n * budget) / rawTotal)))
  let missing = budget - sizes.reduce((sum, n) => sum + n, 0)
  for (let i = 0; missing > 0; i = (i + 1) % sizes.length, missing--) sizes[i] = (sizes[i] ?? 0) + 1
  sizes.splice(config.bigIndex, 0, config.bigSize)
  return sizes
}

/** Sessions one at a time (a 1M-message plan never sits in memory whole). */
export function* planSessions(config: PlanConfig, content: ContentFactory): Generator<PlannedSession> {
  const sizes = sessionSizes(config)
  for (const [index, size] of sizes.entries()) {
    // One PRNG per session: a session's content does not depend on the ones before it.
    yield planSession(index, size, createRng(config.seed * 7919 + index), content)
  }
}

function planSession(index: number, size: number, rng: Rng, content: ContentFactory): PlannedSession {
  const createdAt = START + index * SESSION_SPACING_MS
  const clock = { now: createdAt }
  const tick = (): number => (clock.now += rng.int(2_000, 30_000))
  const steps: Step[] = []
  let written = 0
  let sinceCompaction = 0
  let title = ''
  while (written < size) {
    if (sinceCompaction >= COMPACT_EVERY && size - written >= 2) {
      steps.push({ kind: 'compact', summary: content.prose(rng, rng.int(2000, 6000)), createdAt: tick() })
      written += 1
      sinceCompaction = 0
    }
    const turn = planTurn(rng, content, tick).slice(0, size - written)
    if (!title) title = `${turn[0]?.content.slice(0, 70) ?? 'Session'}`
    for (const message of turn) steps.push({ kind: 'append', message })
    steps.push({ kind: 'closeTurn' })
    written += turn.length
    sinceCompaction += turn.length
  }
  return { index, title, createdAt, messageCount: size, steps }
}

/** One agent turn: a prompt, 1–6 tool rounds (some with reasoning or a short remark), a final answer. */
function planTurn(rng: Rng, content: ContentFactory, tick: () => number): PlannedMessage[] {
  const turn: PlannedMessage[] = [{ role: 'user', content: content.prompt(rng), createdAt: tick() }]
  const rounds = rng.int(1, 6)
  for (let round = 0; round < rounds; round++) {
    if (rng.chance(0.5)) turn.push({ role: 'reasoning', content: content.prose(rng, rng.int(300, 1500)), createdAt: tick() })
    const toolName = content.toolName(rng)
    const toolCallId = content.callId(rng)
    turn.push({ role: 'tool_call', content: '', toolName, toolCallId, toolInput: content.toolInput(rng, toolName), model: MODEL, createdAt: tick() })
    turn.push({ role: 'tool_result', content: content.toolResult(rng, toolName), toolName, toolCallId, isError: rng.chance(0.05), createdAt: tick() })
    if (rng.chance(0.3)) turn.push(assistant(rng, content.prose(rng, rng.int(100, 300)), tick()))
  }
  turn.push(assistant(rng, content.prose(rng, rng.int(1000, 3000)), tick()))
  return turn
}

function assistant(rng: Rng, text: string, createdAt: number): PlannedMessage {
  const usage: PlannedUsage = {
    inputTokens: rng.int(2_000, 150_000),
    outputTokens: rng.int(50, 4_000),
    cacheReadTokens: rng.int(0, 100_000),
    cacheWriteTokens: rng.int(0, 5_000),
    costUsd: rng.int(1, 90_000) / 1_000_000
  }
  return { role: 'assistant', content: text, model: MODEL, usage, createdAt }
}
