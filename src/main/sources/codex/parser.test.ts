import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { FileEditRecord, MessageRecord, SessionMetaRecord, SourceRecord, UsageRecord } from '../records'
import { createCodexParser } from './parser'

const SESSIONS = fileURLToPath(new URL('../../../../fixtures/codex/codemie/sessions', import.meta.url))

/** Fixture A: real, codex_exec 0.77.0 (shell tool, JSON-wrapped outputs, ghost snapshot). */
const A = '2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'
/** Fixture B: hand-made by the codemie authors, 0.77.0 shape: three shell calls, one failing. */
const B = '2026/01/02/rollout-2026-01-02T19-00-00-019b7f95-0000-7000-0000-000000000001.jsonl'
/** Fixture C: real, codex-tui 0.125.0 (exec_command/write_stdin, apply_patch custom tool, web search). */
const C = '2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'
/** Fixture D: real, Codex Desktop 0.128.0-alpha.1 (user prompts only as events, no token counts). */
const D = '2026/05/11/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'

interface Line {
  text: string
  offset: number
}

function linesOf(buffer: Buffer): Line[] {
  const lines: Line[] = []
  let start = 0
  for (;;) {
    const newline = buffer.indexOf(0x0a, start)
    if (newline === -1) break
    const text = buffer.subarray(start, newline).toString('utf8')
    if (text.trim() !== '') lines.push({ text, offset: start })
    start = newline + 1
  }
  return lines
}

function fixtureLines(name: string): Line[] {
  return linesOf(readFileSync(join(SESSIONS, name)))
}

function parseLines(lines: Line[], state?: unknown): SourceRecord[] {
  const parser = createCodexParser(state)
  return lines.flatMap((line) => parser.feed(line.text, line.offset))
}

/** Lines given as objects, at made-up offsets (100 bytes apart). */
function parseObjects(objects: unknown[]): SourceRecord[] {
  return parseLines(objects.map((o, i) => ({ text: typeof o === 'string' ? o : JSON.stringify(o), offset: i * 100 })))
}

const messages = (records: SourceRecord[], role?: MessageRecord['role']): MessageRecord[] =>
  records.filter((r): r is MessageRecord => r.kind === 'message' && (role === undefined || r.role === role))
const ofKind = <K extends SourceRecord['kind']>(records: SourceRecord[], kind: K): Extract<SourceRecord, { kind: K }>[] =>
  records.filter((r): r is Extract<SourceRecord, { kind: K }> => r.kind === kind)

function usageTotals(records: SourceRecord[]): { input: number; cacheRead: number; output: number } {
  const usage = ofKind(records, 'usage')
  return {
    input: usage.reduce((sum, r: UsageRecord) => sum + (r.usage.inputTokens ?? 0), 0),
    cacheRead: usage.reduce((sum, r: UsageRecord) => sum + (r.usage.cacheReadTokens ?? 0), 0),
    output: usage.reduce((sum, r: UsageRecord) => sum + (r.usage.outputTokens ?? 0), 0)
  }
}

/** The type of the line a record came from (`response_item:message`, `event_msg:user_message`…). */
function sourceType(lines: Line[], offset: number): string {
  const line = lines.find((l) => l.offset === offset)
  if (!line) throw new Error(`no line at offset ${offset}`)
  const json = JSON.parse(line.text) as { type: string; payload: { type?: string } }
  return json.payload.type ? `${json.type}:${json.payload.type}` : json.type
}

/** Every tool_result names a call id that an earlier tool_call record carried. */
function expectResultsPaired(records: SourceRecord[]): void {
  const seen = new Set<string>()
  for (const record of messages(records)) {
    if (record.role === 'tool_call' && record.toolCallId) seen.add(record.toolCallId)
    if (record.role === 'tool_result') {
      expect(record.toolCallId, 'tool_result without call id').toBeTruthy()
      expect(seen.has(record.toolCallId!), `result ${record.toolCallId} before/without its call`).toBe(true)
    }
  }
}

// Expected numbers below were counted independently of the parser, with jq, e.g.:
//   jq -c 'select(.type=="response_item" and .payload.type=="message") | [.payload.role, (.payload.content|map(.text[0:40]))]' F
//   jq -c 'select(.type=="response_item" and (.payload.type|test("call$"))) | .payload.name // .payload.type' F | sort | uniq -c
//   jq -c 'select(.type=="response_item" and (.payload.type|test("_output$")))' F | wc -l
//   jq -r 'select(.payload.type|test("_output$")) | .payload.output' F   (exit codes: metadata.exit_code, or
//     "Process exited with code N" in the unified-exec header)
//   jq -s '[.[]|select(.payload.type=="token_count" and .payload.info)][-1].payload.info.total_token_usage' F
//   jq -c 'select(.type=="event_msg" and .payload.type=="user_message") | .payload.message[0:40]' F
// and by reading the files: which user messages are AGENTS.md / <environment_context> boilerplate.
describe('Codex rollout fixtures', () => {
  it('A (0.77, codex exec): meta, one prompt, three shell calls paired, usage = last total', () => {
    const lines = fixtureLines(A)
    const records = parseLines(lines)
    expect(ofKind(records, 'skipped')).toEqual([])

    const meta = ofKind(records, 'session-meta')
    expect(meta[0]).toMatchObject({
      sessionId: '019b7f94-51b4-7593-922e-ba12b5b73b52',
      cwd: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code',
      gitBranch: 'codex',
      createdAt: Date.parse('2026-01-02T16:39:45.332Z')
    })
    expect(meta[0]!.forkedFrom).toBeUndefined()
    // Four identical turn_context lines: the model once.
    expect(meta.filter((m) => m.model !== undefined).map((m) => m.model)).toEqual(['gpt-5-1-codex-2025-11-13'])

    // 3 user items: "# AGENTS.md instructions…", "<environment_context>…", then the prompt; the
    // user_message event restates the prompt.
    const users = messages(records, 'user')
    expect(users).toHaveLength(1)
    expect(users[0]).toMatchObject({ startsTurn: true, content: 'what is current repository about? summarize purpuse and explain goals' })
    expect(sourceType(lines, users[0]!.offset)).toBe('response_item:message')
    expect(messages(records).filter((m) => m.startsTurn)).toHaveLength(1)
    const system = messages(records, 'system')
    expect(system.map((m) => m.content.slice(0, 21))).toEqual(['# AGENTS.md instructi', '<environment_context>'])
    expect(system.every((m) => !m.startsTurn)).toBe(true)

    const calls = messages(records, 'tool_call')
    expect(calls.map((c) => [c.toolName, c.toolCallId, c.content])).toEqual([
      ['shell', 'call_1sXxutbQI29Z41aSr0GPiMSO', 'ls'],
      ['shell', 'call_GJwkZaB7U9xw2agS4AgfU0iw', "rg --files -g 'AGENTS.md'"],
      ['shell', 'call_M3SFIF0fMmhRrfLf0jqKywgV', "sed -n '1,160p' README.md"]
    ])
    expect(calls[0]!.toolInput).toEqual({ command: ['bash', '-lc', 'ls'], workdir: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code' })
    expect(ofKind(records, 'shell-command').map((s) => [s.toolCallId, s.command])).toEqual(calls.map((c) => [c.toolCallId, c.content]))

    const results = messages(records, 'tool_result')
    expect(results).toHaveLength(3)
    expect(results.every((r) => r.isError === false && r.toolName === 'shell')).toBe(true)
    // The {"output", "metadata"} wrapper is unwrapped.
    expect(results[1]!.content).toBe('docs/AGENTS.md\n')
    expectResultsPaired(records)

    // 3 reasoning items; the third's summary is restated by the agent_reasoning event before it.
    const reasoning = messages(records, 'reasoning')
    expect(reasoning).toHaveLength(3)
    expect(reasoning.map((r) => sourceType(lines, r.offset))).toEqual(Array(3).fill('response_item:reasoning'))
    expect(reasoning[0]!.content).toBe('(reasoning encrypted by the provider)')
    expect(reasoning[2]!.content).toMatch(/^\*\*Clarifying documentation instructions\*\*\n\nI need to figure out/)

    expect(ofKind(records, 'note')).toEqual([
      { kind: 'note', offset: expect.any(Number) as number, text: 'ghost snapshot 5392ce71154897a21148dd2e33147569343af651 (Codex /undo anchor)' }
    ])

    // 6 token_count events: 1 without info, 5 with, 3 distinct totals. Last total_token_usage:
    // input 22474 (cached 14848), output 300 (reasoning 128 included), total 22774.
    expect(ofKind(records, 'usage')).toHaveLength(3)
    expect(usageTotals(records)).toEqual({ input: 22474 - 14848, cacheRead: 14848, output: 300 })
    expect(messages(records, 'assistant')).toHaveLength(0)
  })

  it('B (hand-made): no prompt, three shell calls, the failing one flagged, usage = last total', () => {
    const records = parseLines(fixtureLines(B))
    expect(ofKind(records, 'skipped')).toEqual([])
    expect(ofKind(records, 'session-meta')[0]).toMatchObject({ sessionId: '019b7f95-0000-7000-0000-000000000001', cwd: '/path/to/codemie-code' })
    expect(messages(records).filter((m) => m.startsTurn)).toHaveLength(0)
    expect(messages(records, 'tool_call').map((c) => c.content)).toEqual(['ls -la', 'cat nonexistent.txt', 'pwd'])
    const results = messages(records, 'tool_result')
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['call_success_1', false],
      ['call_failure_1', true],
      ['call_success_2', false]
    ])
    expect(results[1]!.content).toBe('cat: nonexistent.txt: No such file or directory\n')
    expectResultsPaired(records)
    expect(ofKind(records, 'shell-command')).toHaveLength(3)
    // Last total_token_usage: input 5300, cached 0, output 180.
    expect(usageTotals(records)).toEqual({ input: 5300, cacheRead: 0, output: 180 })
  })

  it('C (0.125 TUI): two prompts, 105 calls / 102 results paired, 3 apply_patch edits, usage = last total', () => {
    const lines = fixtureLines(C)
    const records = parseLines(lines)
    expect(ofKind(records, 'skipped')).toEqual([])
    const meta = ofKind(records, 'session-meta')
    expect(meta[0]).toMatchObject({
      sessionId: '019e1625-789d-76c0-80ab-3724b5ddb799',
      cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code',
      gitBranch: 'feat/codex-agent-plugin'
    })
    expect(meta.filter((m) => m.model !== undefined).map((m) => m.model)).toEqual(['gpt-5.5'])

    // 3 user items: [AGENTS.md + <environment_context>] in one item, "show tools", "let's update…";
    // 2 user_message events restate the two prompts.
    const users = messages(records, 'user')
    expect(users.map((u) => u.content)).toEqual(['show tools', "let's update the defailt context compart to 90 in env var"])
    expect(users.every((u) => u.startsTurn && sourceType(lines, u.offset) === 'response_item:message')).toBe(true)
    expect(messages(records).filter((m) => m.startsTurn)).toHaveLength(2)
    // The developer item (permissions, collaboration mode, skills, plugins) and the AGENTS.md item.
    expect(messages(records, 'system')).toHaveLength(2)

    // 13 assistant items, each preceded by an agent_message event with the same text: kept once,
    // from the item.
    const assistant = messages(records, 'assistant')
    expect(assistant).toHaveLength(13)
    expect(assistant.every((a) => sourceType(lines, a.offset) === 'response_item:message' && a.model === 'gpt-5.5')).toBe(true)
    expect(assistant[0]!.content).toContain('Available tool groups in this session')

    // function_call 99 (exec_command 43, write_stdin 54, update_plan 2), custom_tool_call apply_patch 3,
    // web_search_call 3 (no call id, no output).
    const calls = messages(records, 'tool_call')
    expect(calls).toHaveLength(105)
    const byName = (name: string): number => calls.filter((c) => c.toolName === name).length
    expect([byName('exec_command'), byName('write_stdin'), byName('update_plan'), byName('apply_patch'), byName('web_search')]).toEqual([
      43, 54, 2, 3, 3
    ])
    const results = messages(records, 'tool_result')
    expect(results).toHaveLength(102)
    expectResultsPaired(records)
    // Exit codes in the unified-exec headers: 39 × 0, 3 × 1, 1 × 2 (56 outputs of running processes have none).
    expect(results.filter((r) => r.isError)).toHaveLength(4)
    expect(ofKind(records, 'shell-command')).toHaveLength(43)

    const edits = ofKind(records, 'file-edit')
    expect(edits.map((e: FileEditRecord) => e.path)).toEqual([
      'src/agents/plugins/__tests__/codemie-code-reasoning.test.ts',
      'src/agents/plugins/codemie-code.plugin.ts',
      'src/agents/plugins/opencode/opencode.plugin.ts'
    ])
    expect(edits.every((e) => e.before === undefined && e.after === undefined && e.fromPath === undefined)).toBe(true)
    expect(edits[1]!.patch).toBe(
      "@@\n   return {\n     enabled_providers: ['codemie-proxy', 'openai', 'ollama', 'amazon-bedrock', 'litellm'],\n     share: 'disabled',\n+    compaction: {\n+      auto: true,\n+      prune: true,\n+      threshold: 0.9,\n+    },\n     provider: {\n"
    )
    expect(edits[0]!.toolCallId).toBe('call_0gOiGGSkJEBvvlrXtBn0xzwL')
    const patchCall = calls.find((c) => c.toolCallId === edits[0]!.toolCallId)!
    expect(patchCall.content).toBe('apply_patch: M src/agents/plugins/__tests__/codemie-code-reasoning.test.ts')
    expect(typeof patchCall.toolInput).toBe('string')

    // 25 reasoning items, all encrypted with empty summaries.
    const reasoning = messages(records, 'reasoning')
    expect(reasoning).toHaveLength(25)
    expect(new Set(reasoning.map((r) => r.content))).toEqual(new Set(['(reasoning encrypted by the provider)']))

    // 66 token_count events, all with distinct totals; the last: input 6055836 (cached 4929536), output 9118.
    expect(ofKind(records, 'usage')).toHaveLength(66)
    expect(usageTotals(records)).toEqual({ input: 6055836 - 4929536, cacheRead: 4929536, output: 9118 })
    expect(ofKind(records, 'compaction')).toHaveLength(0)
  })

  it('D (Desktop 0.128): three prompts from user_message events, 38 calls paired, no usage', () => {
    const lines = fixtureLines(D)
    const records = parseLines(lines)
    expect(ofKind(records, 'skipped')).toEqual([])
    expect(ofKind(records, 'session-meta')[0]).toMatchObject({ sessionId: '019e1695-0522-7c83-8b39-0dd379793f80', cwd: '/Users/Sample_User/naya' })
    // No user message items in this rollout: the three events are the prompts.
    const users = messages(records, 'user')
    expect(users).toHaveLength(3)
    expect(users.every((u) => u.startsTurn && sourceType(lines, u.offset) === 'event_msg:user_message')).toBe(true)
    expect(users[1]!.content).toBe('there is a need for nikita to draft demo scenario around governance, budgetings, analytics\n')
    expect(messages(records, 'assistant')).toHaveLength(3)
    // function_call 38: exec_command 35, js 3; 38 outputs; one "Process exited with code 1".
    const calls = messages(records, 'tool_call')
    expect(calls).toHaveLength(38)
    expect(calls.filter((c) => c.toolName === 'js').map((c) => c.content)).toEqual([
      'js: Connect browser session',
      'js: Open local Codemie UI',
      'js: Open deployed Codemie'
    ])
    const results = messages(records, 'tool_result')
    expect(results).toHaveLength(38)
    expect(results.filter((r) => r.isError)).toHaveLength(1)
    expectResultsPaired(records)
    expect(ofKind(records, 'shell-command')).toHaveLength(35)
    expect(messages(records, 'reasoning')).toHaveLength(16)
    expect(ofKind(records, 'usage')).toHaveLength(0)
  })

  it.each([A, B, C, D])('resumes identically from its JSON state after any line (%s)', (name) => {
    const lines = fixtureLines(name)
    const whole = parseLines(lines)
    // A new parser per line, from the JSON of the previous one's state: a split at every line.
    let state: unknown = undefined
    const pieced: SourceRecord[] = []
    for (const line of lines) {
      const parser = createCodexParser(state === undefined ? undefined : JSON.parse(JSON.stringify(state)))
      pieced.push(...parser.feed(line.text, line.offset))
      state = parser.state()
    }
    expect(pieced).toEqual(whole)
    // And one split in the middle, as an incremental import would do.
    const half = Math.floor(lines.length / 2)
    const first = createCodexParser()
    const head = lines.slice(0, half).flatMap((l) => first.feed(l.text, l.offset))
    const tail = parseLines(lines.slice(half), JSON.parse(JSON.stringify(first.state())))
    expect([...head, ...tail]).toEqual(whole)
  })
})

// ---- made-up lines for what the fixtures lack

const T = '2026-03-01T10:00:00.000Z'
const meta = (extra: Record<string, unknown> = {}): unknown => ({
  timestamp: T,
  type: 'session_meta',
  payload: { id: 'child-1', timestamp: T, cwd: '/work/proj', originator: 'codex_cli_rs', cli_version: '0.50.0', ...extra }
})
const item = (payload: Record<string, unknown>): unknown => ({ timestamp: T, type: 'response_item', payload })
const event = (payload: Record<string, unknown>): unknown => ({ timestamp: T, type: 'event_msg', payload })
const userItem = (text: string): unknown => item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] })
const assistantItem = (text: string): unknown => item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] })

describe('Codex parser on made-up lines', () => {
  it('reads forked_from_id as forkedFrom', () => {
    const [record] = parseObjects([meta({ forked_from_id: 'parent-9' })]) as SessionMetaRecord[]
    expect(record).toMatchObject({ kind: 'session-meta', sessionId: 'child-1', cwd: '/work/proj', forkedFrom: { sessionId: 'parent-9', messageUid: null } })
  })

  it('reports garbage and truncated lines as skipped with a reason and counts unknown kinds as unread, never throwing', () => {
    const real = fixtureLines(A)[3]!.text
    const records = parseObjects([
      meta(),
      'not json at all',
      real.slice(0, Math.floor(real.length / 2)),
      'null',
      '[1,2]',
      { type: 'session_meta' },
      { timestamp: T, type: 'turn_context', payload: 'oops' },
      { timestamp: T, type: 'mystery_line', payload: {} },
      item({ type: 'function_call', name: 'shell', arguments: '{}' }),
      item({ type: 'hologram' }),
      event({ type: 'brand_new_event' }),
      event({ type: 'user_message' }),
      item({ type: 'message', role: 'tool', content: [] }),
      { timestamp: T, type: 'session_meta', payload: { id: 'someone-else', cwd: '/x' } },
      ''
    ])
    const skipped = ofKind(records, 'skipped')
    expect(skipped.map((s) => [s.offset / 100, s.reason])).toEqual([
      [1, expect.stringMatching(/^invalid JSON/)],
      [2, expect.stringMatching(/^invalid JSON .*truncated/)],
      [3, expect.stringMatching(/^not a rollout line/)],
      [4, expect.stringMatching(/^not a rollout line/)],
      [5, 'session_meta line without a payload'],
      [6, 'turn_context line whose payload is not an object'],
      [8, expect.stringMatching(/^response_item function_call: call_id: /)],
      [11, expect.stringMatching(/^event_msg user_message: message: /)],
      [13, expect.stringMatching(/session_meta of another session \(someone-else\)/)]
    ])
    const unread = ofKind(records, 'unread')
    expect(unread.map((u) => [u.offset / 100, u.what, u.agentVersion])).toEqual([
      [7, 'line type "mystery_line"', '0.50.0'],
      [9, 'response_item "hologram"', '0.50.0'],
      [10, 'event_msg "brand_new_event"', '0.50.0'],
      [12, 'response_item message of role "tool"', '0.50.0']
    ])
  })

  it('keeps one compaction per compaction, with the summary when one was written', () => {
    const records = parseObjects([
      meta(),
      userItem('first'),
      { timestamp: T, type: 'compacted', payload: { message: 'Summary: the user wants X.' } },
      event({ type: 'context_compacted' }),
      userItem('second'),
      event({ type: 'context_compacted' }),
      assistantItem('ok'),
      item({ type: 'compaction', encrypted_content: 'gAAA' }),
      { timestamp: T, type: 'compacted', payload: { message: '', replacement_history: [] } },
      event({ type: 'context_compacted' })
    ])
    expect(ofKind(records, 'compaction').map((c) => [c.offset / 100, c.summary])).toEqual([
      [2, 'Summary: the user wants X.'],
      [5, '(context compacted; Codex recorded no summary)'],
      [7, '(context compacted by the provider; the summary is encrypted)']
    ])
    // The held context_compacted event (line 5) comes out before the assistant message (line 6).
    expect(records.map((r) => r.offset / 100)).toEqual([0, 1, 2, 4, 5, 6, 7])
  })

  it('prefers a compacted line that follows its context_compacted event', () => {
    const records = parseObjects([meta(), event({ type: 'context_compacted' }), { timestamp: T, type: 'compacted', payload: { message: 'S' } }])
    expect(ofKind(records, 'compaction')).toEqual([{ kind: 'compaction', offset: 200, uid: null, summary: 'S', createdAt: Date.parse(T) }])
  })

  it('de-duplicates user prompts in either order, and keeps lone events', () => {
    const records = parseObjects([
      meta(),
      event({ type: 'user_message', message: 'event first', images: [] }),
      userItem('event first'),
      assistantItem('a1'),
      userItem('item first'),
      event({ type: 'user_message', message: 'item first' }),
      assistantItem('a2'),
      event({ type: 'user_message', message: 'only an event', images: ['data:image/png;base64,iVBORw0KGgo='], local_images: ['/tmp/shot.jpg'] }),
      assistantItem('a3'),
      event({ type: 'user_message', message: '<environment_context>\n</environment_context>' })
    ])
    const users = messages(records, 'user')
    expect(users.map((u) => [u.offset / 100, u.content])).toEqual([
      [1, 'event first'],
      [4, 'item first'],
      [7, 'only an event']
    ])
    expect(users[2]!.attachments).toEqual([
      { mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { mediaType: 'image/jpeg', data: null, name: '/tmp/shot.jpg' }
    ])
    expect(messages(records, 'assistant')).toHaveLength(3)
  })

  it('in a file without user_message events, treats boilerplate user items as system messages that start no turn', () => {
    const records = parseObjects([
      meta(),
      userItem('<user_instructions>\nBe terse.\n</user_instructions>'),
      userItem('# AGENTS.md instructions for /work/proj\n\n<INSTRUCTIONS>x</INSTRUCTIONS>'),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }, { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/' }] }),
      item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>…' }] }),
      assistantItem('hi')
    ])
    expect(messages(records).map((m) => [m.role, m.startsTurn])).toEqual([
      ['system', false],
      ['system', false],
      ['user', true],
      ['system', false],
      ['assistant', false]
    ])
    expect(messages(records, 'user')[0]!.attachments).toEqual([{ mediaType: 'image/jpeg', data: '/9j/' }])
  })

  it('releases held agent_message / agent_reasoning events when no item restates them', () => {
    const records = parseObjects([
      meta(),
      event({ type: 'agent_reasoning', text: 'part one' }),
      event({ type: 'agent_reasoning', text: 'part two' }),
      item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'part one' }, { type: 'summary_text', text: 'part two' }], encrypted_content: 'x' }),
      event({ type: 'agent_reasoning', text: 'lonely thought' }),
      event({ type: 'task_complete' }),
      event({ type: 'agent_message', message: 'lonely answer' }),
      event({ type: 'token_count', info: { total_token_usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3, reasoning_output_tokens: 1, total_tokens: 13 }, last_token_usage: null } })
    ])
    expect(records.map((r) => [r.offset / 100, r.kind === 'message' ? `${r.role}: ${r.content}` : r.kind])).toEqual([
      [0, 'session-meta'],
      [3, 'reasoning: part one\n\npart two'],
      [4, 'reasoning: lonely thought'],
      [6, 'assistant: lonely answer'],
      [7, 'usage']
    ])
    expect((records[4] as UsageRecord).usage).toEqual({ inputTokens: 6, cacheReadTokens: 4, outputTokens: 3 })
  })

  it('reads apply_patch given to the shell, resolving paths against the workdir', () => {
    const patch = '*** Begin Patch\n*** Add File: docs/new.md\n+# New\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-x\n+y\n*** Delete File: /abs/old.txt\n*** End Patch'
    const records = parseObjects([
      meta(),
      item({ type: 'function_call', name: 'shell', call_id: 'c1', arguments: JSON.stringify({ command: ['apply_patch', patch], workdir: '/work/proj/pkg' }) }),
      item({ type: 'function_call_output', call_id: 'c1', output: JSON.stringify({ output: 'Success.', metadata: { exit_code: 0 } }) }),
      item({ type: 'function_call', name: 'shell', call_id: 'c2', arguments: JSON.stringify({ command: ['bash', '-lc', `cd sub && apply_patch <<'EOF'\n${patch}\nEOF`], workdir: '/w' }) }),
      item({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'c3', input: '*** Begin Patch\n*** Update File: x.ts\n*** End Patch' })
    ])
    expect(ofKind(records, 'file-edit')).toEqual([
      { kind: 'file-edit', offset: 100, toolCallId: 'c1', path: '/work/proj/pkg/docs/new.md', before: null, after: '# New\n' },
      { kind: 'file-edit', offset: 100, toolCallId: 'c1', path: '/work/proj/pkg/src/b.ts', fromPath: '/work/proj/pkg/src/a.ts', patch: '@@\n-x\n+y\n' },
      { kind: 'file-edit', offset: 100, toolCallId: 'c1', path: '/abs/old.txt', after: null },
      { kind: 'file-edit', offset: 300, toolCallId: 'c2', path: '/w/sub/docs/new.md', before: null, after: '# New\n' },
      { kind: 'file-edit', offset: 300, toolCallId: 'c2', path: '/w/sub/src/b.ts', fromPath: '/w/sub/src/a.ts', patch: '@@\n-x\n+y\n' },
      { kind: 'file-edit', offset: 300, toolCallId: 'c2', path: '/abs/old.txt', after: null }
    ])
    // A shell call that is an apply_patch is no shell command (Codex applies it itself).
    expect(ofKind(records, 'shell-command')).toEqual([])
    expect(messages(records, 'tool_call').map((c) => c.content)).toEqual([
      'apply_patch: A docs/new.md, R src/a.ts → src/b.ts, D /abs/old.txt',
      'apply_patch: A docs/new.md, R src/a.ts → src/b.ts, D /abs/old.txt',
      'apply_patch (patch not understood)'
    ])
    expect(ofKind(records, 'skipped')).toEqual([{ kind: 'skipped', offset: 400, reason: "apply_patch not understood: the update of 'x.ts' has no hunk" }])
  })

  it('reads local_shell_call, shell_command, turn_aborted and output content arrays', () => {
    const records = parseObjects([
      meta(),
      item({ type: 'local_shell_call', call_id: 'l1', status: 'completed', action: { type: 'exec', command: ['git', 'commit', '-m', 'a b'], working_directory: '/w' } }),
      item({ type: 'function_call_output', call_id: 'l1', output: [{ type: 'input_text', text: 'done' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' }] }),
      item({ type: 'function_call', name: 'shell_command', call_id: 's1', arguments: '{"command":"npm test\\nnpm run lint"}' }),
      item({ type: 'function_call_output', call_id: 's1', output: 'Exit code: 1\nWall time: 2s\nOutput:\nfail' }),
      item({ type: 'function_call', name: 'view_image', call_id: 'v1', arguments: 'not json' }),
      event({ type: 'turn_aborted', reason: 'interrupted' })
    ])
    expect(messages(records, 'tool_call').map((c) => [c.toolName, c.content])).toEqual([
      ['local_shell', "git commit -m 'a b'"],
      ['shell_command', 'npm test …'],
      ['view_image', 'view_image: not json']
    ])
    expect(messages(records, 'tool_call')[2]!.toolInput).toBe('not json')
    expect(ofKind(records, 'shell-command').map((s) => [s.toolCallId, s.command])).toEqual([
      ['l1', "git commit -m 'a b'"],
      ['s1', 'npm test\nnpm run lint']
    ])
    const results = messages(records, 'tool_result')
    expect(results[0]).toMatchObject({ toolName: 'local_shell', content: 'done', attachments: [{ mediaType: 'image/png', data: 'AAAA' }] })
    expect(results[1]).toMatchObject({ toolName: 'shell_command', isError: true })
    expect(messages(records, 'system').map((m) => m.content)).toEqual(['Turn aborted (interrupted)'])
  })
})
