import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES } from '../../src/main/sources/testing/claude-home'

// The real agent files the scale corpus is copied from (see fixtures/*/PROVENANCE.txt), each cut
// once into a template whose ids, times and folder are filled in per copy. Weights make small
// sessions dominate by count, as in real histories, while the few long ones carry most messages.

export type SampleSource = 'claude-code' | 'codex'

interface SampleSpec {
  source: SampleSource
  /** Path under fixtures/. */
  path: string
  /** Relative share of the corpus's sessions. */
  weight: number
  /** Keep only about this share of the file's bytes (cut at a line end): a shorter real session. */
  cut?: number
}

const CC = 'claude-code/claude-code-log/'
const CODEX = 'codex/localpush/sessions/2026/02/23/rollout-2026-02-23T'

const SPECS: SampleSpec[] = [
  // Claude Code, short sessions (10-75 KB): most of a real history by count.
  { source: 'claude-code', path: 'claude-code/spotter/short.jsonl', weight: 14 },
  { source: 'claude-code', path: `${CC}-Users-dain-workspace-danieldemmel-me-next/5ed31c36-bca8-40fd-8d24-f1a1f0af7901.jsonl`, weight: 12 },
  { source: 'claude-code', path: 'claude-code/codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl', weight: 12 },
  { source: 'claude-code', path: 'claude-code/spotter/tool_heavy.jsonl', weight: 12 },
  { source: 'claude-code', path: `${CC}-Users-dain-workspace-danieldemmel-me-next/b25638d7-b104-4f06-a797-70ac33d069ed.jsonl`, weight: 8 },
  { source: 'claude-code', path: 'conformance/claude-code-log-ideas-fork/projects/-experiments-ideas/03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl', weight: 8 },
  { source: 'claude-code', path: `${CC}-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a52886dc180afb356.jsonl`, weight: 6 },
  // Claude Code, long sessions (0.25-2.7 MB).
  { source: 'claude-code', path: `${CC}-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl`, weight: 2 },
  { source: 'claude-code', path: `${CC}-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl`, weight: 1 },
  { source: 'claude-code', path: `${CC}-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl`, weight: 0.4 },
  { source: 'claude-code', path: 'claude-code/spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', weight: 0.4, cut: 0.4 },
  { source: 'claude-code', path: 'claude-code/spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', weight: 0.1 },
  // Codex rollouts (Codex Desktop 0.104), short and long.
  { source: 'codex', path: `${CODEX}13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl`, weight: 4 },
  { source: 'codex', path: `${CODEX}20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl`, weight: 4 },
  { source: 'codex', path: `${CODEX}12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl`, weight: 11 },
  { source: 'codex', path: `${CODEX}12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl`, weight: 2 },
  { source: 'codex', path: `${CODEX}12-47-42-019c8a53-a0dd-7130-bcd7-95445d84846a.jsonl`, weight: 3 },
  { source: 'codex', path: `${CODEX}12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl`, weight: 2.5 }
]

/** A hole in a template, filled per copy. */
type Hole =
  | { kind: 'uuid'; head: string; tail: string }
  | { kind: 'time'; offsetMs: number }
  | { kind: 'cwd' }
  | { kind: 'session' }

export interface Sample {
  source: SampleSource
  path: string
  weight: number
  bytes: number
  /** Lines that become messages (user/assistant lines; Codex response items), about the importer's count. */
  messages: number
  /** Literal text between holes: parts.length === holes.length + 1. */
  parts: string[]
  holes: Hole[]
}

const HOLE = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)([0-9a-f]{12})|"timestamp":"([^"]+)"|"cwd":"((?:[^"\\]|\\.)*)"|"sessionId":"[^"]*"/g
const CODEX_MESSAGE = /"type":"response_item","payload":\{"type":"(?:message|function_call|function_call_output|reasoning|custom_tool_call|custom_tool_call_output)"/

function template(spec: SampleSpec): Sample {
  let text = readFileSync(join(FIXTURES, spec.path), 'utf8')
  if (spec.cut) text = text.slice(0, text.lastIndexOf('\n', Math.floor(text.length * spec.cut)) + 1)
  const times = [...text.matchAll(/"timestamp":"([^"]+)"/g)].map((match) => Date.parse(match[1] ?? '')).filter((ms) => !Number.isNaN(ms))
  const first = Math.min(...times)
  const parts: string[] = []
  const holes: Hole[] = []
  let last = 0
  for (const match of text.matchAll(HOLE)) {
    const [whole, head, tail, time, cwd] = match
    let hole: Hole | null = null
    if (head !== undefined && tail !== undefined) hole = { kind: 'uuid', head, tail }
    else if (time !== undefined) hole = Number.isNaN(Date.parse(time)) ? null : { kind: 'time', offsetMs: Date.parse(time) - first }
    else if (cwd !== undefined) hole = { kind: 'cwd' }
    else if (spec.source === 'claude-code') hole = { kind: 'session' }
    if (!hole) continue
    parts.push(text.slice(last, match.index))
    holes.push(hole)
    last = match.index + whole.length
  }
  parts.push(text.slice(last))
  const lines = text.split('\n')
  const messages = spec.source === 'codex' ? lines.filter((line) => CODEX_MESSAGE.test(line)).length : lines.filter((line) => /"type":"(?:user|assistant)"/.test(line) && line.includes('"message"')).length
  return { source: spec.source, path: spec.path, weight: spec.weight, bytes: Buffer.byteLength(text), messages, parts, holes }
}

let cached: Sample[] | null = null

export function samples(): Sample[] {
  cached ??= SPECS.map(template)
  return cached
}

export interface Copy {
  /** The copy's number: its uuids carry it, so no two copies share one. */
  copy: number
  sessionId: string
  startMs: number
  cwd: string
}

/** The sample's text for one copy: its own ids, its times moved to start at `startMs`, its folder. */
export function render(sample: Sample, { copy, sessionId, startMs, cwd }: Copy): string {
  const tag = copy.toString(16).padStart(6, '0')
  const folder = JSON.stringify(cwd)
  let out = sample.parts[0] ?? ''
  sample.holes.forEach((hole, index) => {
    if (hole.kind === 'uuid') out += `${hole.head}${tag}${hole.tail.slice(6)}`
    else if (hole.kind === 'time') out += `"timestamp":"${new Date(startMs + hole.offsetMs).toISOString()}"`
    else if (hole.kind === 'cwd') out += `"cwd":${folder}`
    else out += `"sessionId":"${sessionId}"`
    out += sample.parts[index + 1] ?? ''
  })
  return out
}

/** The id a copy's first uuid gets in `render`: a Codex rollout's file is named by it. */
export function ownId(id: string, copy: number): string {
  return `${id.slice(0, 24)}${copy.toString(16).padStart(6, '0')}${id.slice(30)}`
}
