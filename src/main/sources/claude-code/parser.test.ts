import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Usage } from '../../../shared/contract'
import type {
  CompactionRecord,
  FileBackupsRecord,
  FileEditRecord,
  LineParser,
  MessageRecord,
  SessionMetaRecord,
  ShellCommandRecord,
  SkippedRecord,
  SourceRecord,
  SubAgentLinkRecord
} from '../records'
import { createClaudeCodeParser } from './parser'

const FIXTURES = join(__dirname, '../../../../fixtures/claude-code')
const SESSION = 'spotter/projects-dir/ae4a77f8-aedd-4bc1-888f-c94edc91af04'
const FILES = {
  short: 'spotter/short.jsonl',
  toolHeavy: 'spotter/tool_heavy.jsonl',
  subagent: 'spotter/subagent.jsonl',
  projects: `${SESSION}.jsonl`,
  agent: `${SESSION}/subagents/agent-aac57f5.jsonl`,
  compactAgent: `${SESSION}/subagents/agent-acompact-946d2b.jsonl`,
  codemie: 'codemie/-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl',
  codemieAgent1: 'codemie/-tmp-private/agent-36541525.jsonl',
  codemieAgent2: 'codemie/-tmp-private/agent-50243ee8.jsonl'
} as const
type FixtureName = keyof typeof FILES
const MAIN_FILES: FixtureName[] = ['short', 'toolHeavy', 'subagent', 'projects', 'codemie']

interface Line {
  text: string
  offset: number
}

/** The file's lines with the byte offset each starts at, as the line reader hands them over. */
function readLines(name: FixtureName): Line[] {
  const lines: Line[] = []
  let offset = 0
  for (const text of readFileSync(join(FIXTURES, FILES[name]), 'utf8').split('\n')) {
    if (text.trim() !== '') lines.push({ text, offset })
    offset += Buffer.byteLength(text) + 1
  }
  return lines
}

function feed(lines: Line[], parser: LineParser = createClaudeCodeParser()): SourceRecord[] {
  return lines.flatMap((line) => parser.feed(line.text, line.offset))
}

const parsed = new Map<FixtureName, SourceRecord[]>()
function records(name: FixtureName): SourceRecord[] {
  let result = parsed.get(name)
  if (!result) {
    result = feed(readLines(name))
    parsed.set(name, result)
  }
  return result
}

const messages = (list: SourceRecord[]) => list.filter((r): r is MessageRecord => r.kind === 'message')
const ofRole = (list: SourceRecord[], role: MessageRecord['role']) => messages(list).filter((r) => r.role === role)
const ofKind = <K extends SourceRecord['kind']>(list: SourceRecord[], kind: K) =>
  list.filter((r): r is Extract<SourceRecord, { kind: K }> => r.kind === kind)

function usageTotals(list: SourceRecord[]): Usage & { records: number } {
  const total = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, records: 0 }
  for (const record of messages(list)) {
    if (!record.usage) continue
    total.records++
    total.inputTokens += record.usage.inputTokens ?? 0
    total.outputTokens += record.usage.outputTokens ?? 0
    total.cacheReadTokens += record.usage.cacheReadTokens ?? 0
    total.cacheWriteTokens += record.usage.cacheWriteTokens ?? 0
  }
  return total
}

describe('Claude Code parser on the real fixtures', () => {
  // Counted independently with jq over the raw files:
  //   prompts: user lines, not isMeta / isCompactSummary, whose text is not tool results,
  //     `<local-command-…>` output or caveats, `[Request interrupted by user…]` marks, or a
  //     local slash command (a `<command-name>` line whose parent is the caveat line);
  //   toolCalls: tool_use blocks of assistant lines; toolResults / errors: tool_result blocks
  //     (with is_error: true); shell: tool_use blocks named Bash; reasoning: thinking blocks;
  //   assistant: text blocks with non-whitespace text.
  it.each([
    ['short', { prompts: 1, toolCalls: 2, toolResults: 2, errors: 2, shell: 1, reasoning: 1, assistant: 1 }],
    ['toolHeavy', { prompts: 2, toolCalls: 6, toolResults: 6, errors: 0, shell: 2, reasoning: 1, assistant: 1 }],
    ['subagent', { prompts: 2, toolCalls: 16, toolResults: 16, errors: 0, shell: 4, reasoning: 4, assistant: 7 }],
    ['projects', { prompts: 2, toolCalls: 242, toolResults: 242, errors: 12, shell: 120, reasoning: 6, assistant: 158 }],
    ['agent', { prompts: 1, toolCalls: 12, toolResults: 12, errors: 0, shell: 0, reasoning: 0, assistant: 3 }],
    ['compactAgent', { prompts: 1, toolCalls: 0, toolResults: 0, errors: 0, shell: 0, reasoning: 0, assistant: 1 }],
    ['codemie', { prompts: 3, toolCalls: 6, toolResults: 6, errors: 0, shell: 1, reasoning: 0, assistant: 4 }],
    ['codemieAgent1', { prompts: 1, toolCalls: 0, toolResults: 0, errors: 0, shell: 0, reasoning: 0, assistant: 1 }],
    ['codemieAgent2', { prompts: 1, toolCalls: 0, toolResults: 0, errors: 0, shell: 0, reasoning: 0, assistant: 1 }]
  ] as const)('%s: prompts, tool calls, results, shell commands', (name, expected) => {
    const list = records(name)
    expect({
      prompts: messages(list).filter((r) => r.startsTurn).length,
      toolCalls: ofRole(list, 'tool_call').length,
      toolResults: ofRole(list, 'tool_result').length,
      errors: ofRole(list, 'tool_result').filter((r) => r.isError).length,
      shell: ofKind(list, 'shell-command').length,
      reasoning: ofRole(list, 'reasoning').length,
      assistant: ofRole(list, 'assistant').length
    }).toEqual(expected)
    // Every turn start is a user message; nothing in these files is unreadable.
    expect(messages(list).filter((r) => r.startsTurn).every((r) => r.role === 'user')).toBe(true)
    expect(ofKind(list, 'skipped')).toEqual([])
  })

  it('pairs every tool result with an earlier tool call of the same file', () => {
    for (const name of Object.keys(FILES) as FixtureName[]) {
      const called = new Set<string>()
      for (const record of messages(records(name))) {
        if (record.role === 'tool_call') called.add(record.toolCallId ?? '')
        if (record.role === 'tool_result') expect(called.has(record.toolCallId ?? ''), `${name} ${record.toolCallId}`).toBe(true)
      }
    }
    // A result knows the name of the tool it answers.
    const names = ofRole(records('codemie'), 'tool_result').map((r) => r.toolName)
    expect(names).toEqual(['Write', 'Write', 'Write', 'Read', 'Edit', 'Bash'])
  })

  it('links every message to a parent that is a record of the same file (through ignored progress and bookkeeping lines)', () => {
    // 7 assistant and 2 user lines of the projects-dir session name a `progress` line as parent.
    for (const name of MAIN_FILES) {
      const uids = new Set<string>()
      for (const record of records(name)) {
        if (record.kind !== 'message' && record.kind !== 'compaction') continue
        if (record.parentUid) expect(uids.has(record.parentUid), `${name} ${record.uid} → ${record.parentUid}`).toBe(true)
        if (record.uid) uids.add(record.uid)
      }
    }
  })

  it('opens a turn only where Claude Code took a file-history snapshot, and at every one but local commands', () => {
    const localCommands: Partial<Record<FixtureName, string[]>> = {
      toolHeavy: ['fbc928bf-df77-45c9-a0ef-51d150f4caf7'], // /mcp
      // The first snapshot names a message that is not in the file; one is taken for the
      // compaction summary line; and the /compact.
      projects: ['044212e4-97e7-488c-805a-d37a097807ab', '94000b8f-fa9f-4b7b-8d81-cdc73aa8a085', 'bcef8ee6-5859-41ce-8dcb-6bc87388fbe6']
    }
    for (const name of MAIN_FILES) {
      const list = records(name)
      const turns = new Set(messages(list).filter((r) => r.startsTurn).map((r) => r.uid))
      const snapshots = new Set(ofKind(list, 'file-backups').map((r) => r.messageUid))
      expect([...turns].filter((uid) => !snapshots.has(uid ?? '')), name).toEqual([])
      const notTurns = [...snapshots].filter((uid) => !turns.has(uid))
      expect(notTurns, name).toEqual(localCommands[name] ?? [])
    }
  })

  it('keeps slash commands, command output and interruptions apart from prompts', () => {
    const list = records('short')
    expect(ofRole(list, 'system').map((r) => r.content)).toEqual([
      '[Request interrupted by user for tool use]',
      '/model',
      'Kept model as Default (recommended)'
    ])
    // tool_heavy runs /mcp twice: once written as user lines below a caveat, once as
    // local_command system lines. Both read as system lines; neither opens a turn.
    const heavy = messages(records('toolHeavy'))
    expect(heavy.filter((r) => r.startsTurn).map((r) => r.content)).toEqual([
      'start phoenix in background',
      'scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions'
    ])
    expect(heavy.filter((r) => r.role === 'system' && r.content === '/mcp')).toHaveLength(2)
    const projects = messages(records('projects'))
    expect(projects.find((r) => r.content === '/compact and continue with the reamining tasks')).toMatchObject({ role: 'system', startsTurn: false })
  })

  it('de-duplicates usage by message.id: the records of one response sum to its final usage', () => {
    // jq: group the assistant lines by message.id, take each field's largest value (only
    // output_tokens grows between the lines of one response), sum over responses.
    const expected: Record<FixtureName, Omit<Usage, 'costUsd'>> = {
      short: { inputTokens: 3, outputTokens: 13, cacheReadTokens: 11515, cacheWriteTokens: 13835 },
      toolHeavy: { inputTokens: 54, outputTokens: 212, cacheReadTokens: 88231, cacheWriteTokens: 17696 },
      subagent: { inputTokens: 1576, outputTokens: 1586, cacheReadTokens: 427286, cacheWriteTokens: 25842 },
      projects: { inputTokens: 242, outputTokens: 49467, cacheReadTokens: 16553628, cacheWriteTokens: 237121 },
      agent: { inputTokens: 2408, outputTokens: 7, cacheReadTokens: 29274, cacheWriteTokens: 18814 },
      compactAgent: { inputTokens: 3, outputTokens: 8, cacheReadTokens: 17842, cacheWriteTokens: 121689 },
      codemie: { inputTokens: 33, outputTokens: 806, cacheReadTokens: 214627, cacheWriteTokens: 37172 },
      codemieAgent1: { inputTokens: 3, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 16976 },
      codemieAgent2: { inputTokens: 16878, outputTokens: 237, cacheReadTokens: 0, cacheWriteTokens: 0 }
    }
    for (const name of Object.keys(FILES) as FixtureName[]) {
      const { records: _records, costUsd: _cost, ...totals } = usageTotals(records(name))
      expect(totals, name).toEqual(expected[name])
    }
    // codemie: 10 assistant lines, 7 responses. The first response spans 4 lines whose
    // output_tokens read 4, 4, 4, 395: its first record carries the usage, the fourth the 391
    // output tokens streamed after it. Taking the first line's usage alone would give 415
    // output tokens, summing every line 818.
    expect(usageTotals(records('codemie')).records).toBe(8)
    const grown = messages(records('codemie')).filter((r) => r.usage && r.usage.inputTokens === undefined)
    expect(grown.map((r) => r.usage)).toEqual([{ outputTokens: 391 }])
  })

  it('agrees with the usage the codemie peer recorded for the same lines', () => {
    // peer-expected-metrics.jsonl holds one record per assistant line (recordId = line uuid)
    // with that line's tokens, not de-duplicated. Grouped by the line's message.id and reduced
    // like ours, they give the same totals for the main session. The peer README's "main
    // session" figures agree on output (806) and cache read (214,627); its input (42) is the
    // sum over all 10 lines (33 de-duplicated), and its cache creation (177,370) matches
    // neither way of counting (142,370 summed, 37,172 de-duplicated): PROVENANCE.txt already
    // notes that the README's numbers are not consistent with each other.
    const peer = readFileSync(join(FIXTURES, 'codemie/peer-expected-metrics.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { recordId: string; tokens: { input?: number; output?: number; cacheCreation?: number; cacheRead?: number } })
    const messageIdOf = new Map<string, string>()
    for (const { text } of readLines('codemie')) {
      const line = JSON.parse(text) as { type: string; uuid?: string; message?: { id?: string } }
      if (line.type === 'assistant' && line.uuid && line.message?.id) messageIdOf.set(line.uuid, line.message.id)
    }
    const byResponse = new Map<string, number[]>()
    let naiveInput = 0
    for (const { recordId, tokens } of peer) {
      const id = messageIdOf.get(recordId)
      if (!id) continue // the sub-agent line 45d4ee27 (agent-50243ee8.jsonl)
      naiveInput += tokens.input ?? 0
      const now = [tokens.input ?? 0, tokens.output ?? 0, tokens.cacheRead ?? 0, tokens.cacheCreation ?? 0]
      const seen = byResponse.get(id) ?? [0, 0, 0, 0]
      byResponse.set(id, seen.map((value, i) => Math.max(value, now[i] ?? 0)))
    }
    expect(byResponse.size).toBe(7)
    const sum = (i: number) => [...byResponse.values()].reduce((total, values) => total + (values[i] ?? 0), 0)
    const ours = usageTotals(records('codemie'))
    expect([sum(0), sum(1), sum(2), sum(3)]).toEqual([ours.inputTokens, ours.outputTokens, ours.cacheReadTokens, ours.cacheWriteTokens])
    expect(ours.outputTokens).toBe(806)
    expect(ours.cacheReadTokens).toBe(214627)
    expect(naiveInput).toBe(42)
    // The peer's sub-agent record 45d4ee27 equals what agent-50243ee8.jsonl gives.
    const agentLine = peer.find((record) => record.recordId.startsWith('45d4ee27'))
    expect(agentLine?.tokens).toEqual({ input: 16878, output: 237 })
  })

  it('turns the compaction of the projects-dir session into a compaction record', () => {
    const list = records('projects')
    const compactions = ofKind(list, 'compaction')
    expect(compactions).toHaveLength(1)
    const compaction = compactions[0] as CompactionRecord
    expect(compaction).toMatchObject({
      uid: '94000b8f-fa9f-4b7b-8d81-cdc73aa8a085',
      // The boundary line has no parentUuid; its logicalParentUuid names a turn_duration line
      // that hangs (through stop_hook_summary and progress lines) below this assistant text.
      parentUid: '1d698e31-9e57-4b0c-b787-727e7bcea2f9',
      trigger: 'manual',
      preTokens: 142431,
      createdAt: Date.parse('2026-02-12T14:48:36.922Z') // the summary line's timestamp
    })
    expect(compaction.summary).toMatch(/^This session is being continued from a previous conversation that ran out of context\./)
    expect(messages(list).find((r) => r.uid === '1d698e31-9e57-4b0c-b787-727e7bcea2f9')?.content).toMatch(/^Perfect! I have successfully completed/)
    // The line after the summary hangs below it.
    expect(messages(list).find((r) => r.uid === 'bc8137ed-4f00-41c3-824d-3e220d6d5def')).toMatchObject({
      role: 'system',
      parentUid: compaction.uid,
      content: expect.stringMatching(/^Caveat: The messages below were generated by the user/) as unknown
    })
  })

  it('links the Task call to the sub-agent aac57f5, whose own file carries that agent id', () => {
    const links = ofKind(records('projects'), 'sub-agent-link')
    // The Task result names it once; its 25 agent_progress lines name it (and the call) while it runs.
    expect(links.filter((link) => link.description !== undefined)).toEqual<SubAgentLinkRecord[]>([
      {
        kind: 'sub-agent-link',
        offset: expect.any(Number) as number,
        toolCallId: 'toolu_01Hf8v1Za7y4af8VUwSR4CXU',
        agentId: 'aac57f5',
        description: 'Check OTEL hex package versions'
      }
    ])
    expect(links).toHaveLength(26)
    expect(links.every((link) => link.agentId === 'aac57f5' && link.toolCallId === 'toolu_01Hf8v1Za7y4af8VUwSR4CXU')).toBe(true)
    // The first comes before the result: the agent is placed while it still runs.
    expect(links[0]?.description).toBeUndefined()
    const call = ofRole(records('projects'), 'tool_call').find((r) => r.toolCallId === 'toolu_01Hf8v1Za7y4af8VUwSR4CXU')
    expect(call).toMatchObject({ toolName: 'Task', content: 'Check OTEL hex package versions (general-purpose)' })
    const agent = messages(records('agent'))
    expect(agent).toHaveLength(28) // 1 prompt + 3 texts + 12 calls + 12 results
    expect(agent.every((r) => r.agentId === 'aac57f5')).toBe(true)
    expect(messages(records('projects')).every((r) => r.agentId === null)).toBe(true)
    // subagent.jsonl's Task (an older plan agent whose transcript is not in the fixtures).
    const planLinks = ofKind(records('subagent'), 'sub-agent-link')
    expect(planLinks.filter((link) => link.description !== undefined)).toMatchObject([{ agentId: 'afb92ff', description: 'Draft beads for linting setup' }])
    expect(new Set(planLinks.map((link) => `${link.agentId} ${link.toolCallId}`)).size).toBe(1)
  })

  it('reads file-history snapshots, keyed by the turn they belong to', () => {
    const codemie = ofKind(records('codemie'), 'file-backups')
    // 6 snapshot lines, 3 of them updates of the first turn's snapshot (the line's own messageId
    // names the assistant message, snapshot.messageId the turn).
    expect(codemie.map((r) => [r.messageUid.slice(0, 8), r.mode, r.files.length])).toEqual([
      ['40523152', 'snapshot', 0],
      ['40523152', 'snapshot', 1],
      ['40523152', 'snapshot', 2],
      ['40523152', 'snapshot', 3],
      ['1baa8499', 'snapshot', 3],
      ['6fff5bfd', 'snapshot', 3]
    ])
    expect(codemie[3]?.files).toEqual([
      { path: 'hello.py', backupFileName: null, version: 1, backupTime: Date.parse('2025-12-10T19:37:52.995Z') },
      { path: 'hello.md', backupFileName: 'bdf9e93c7e5e5261@v1', version: 1, backupTime: Date.parse('2025-12-10T19:37:53.082Z') },
      { path: 'hello.js', backupFileName: '31326649df3e591c@v1', version: 1, backupTime: Date.parse('2025-12-10T19:37:53.145Z') }
    ])
    expect(codemie[5]?.files.find((f) => f.path === 'hello.py')).toMatchObject({ backupFileName: '44096c3c3ab479c3@v3', version: 3 })

    // projects-dir: 26 lines (jq: group by .snapshot.messageId): the first turn 1 + 15 updates,
    // the last turn 1 + 6 updates, one each for 044212e4, the compaction summary and /compact.
    const projects = ofKind(records('projects'), 'file-backups')
    const perTurn = new Map<string, FileBackupsRecord[]>()
    for (const record of projects) perTurn.set(record.messageUid, [...(perTurn.get(record.messageUid) ?? []), record])
    expect([...perTurn.values()].map((list) => list.length)).toEqual([1, 16, 1, 1, 7])
    const firstTurn = perTurn.get('858a6db7-6721-4caa-b306-39ec1f17cbf1') ?? []
    expect(firstTurn.at(-1)?.files).toHaveLength(15)
    // Paths are kept as written: relative to the session's cwd.
    expect(firstTurn.at(-1)?.files.map((f) => f.path)).toContain('config/config.exs')

    const plan = ofKind(records('subagent'), 'file-backups')
    expect(plan.map((r) => [r.messageUid.slice(0, 8), r.files])).toEqual([
      ['cc2c7130', []],
      ['cc2c7130', [{ path: 'plan.md', backupFileName: null, version: 1, backupTime: Date.parse('2026-02-10T21:59:17.141Z') }]],
      ['091e0ff4', [{ path: 'plan.md', backupFileName: 'b872f856d78f0425@v2', version: 2, backupTime: Date.parse('2026-02-10T22:01:14.889Z') }]]
    ])
  })

  it('rebuilds the codemie scenario’s files: 3 Writes create, 1 Edit adds a line', () => {
    const edits = ofKind(records('codemie'), 'file-edit')
    expect(edits.map((e) => e.path)).toEqual(['/tmp/private/hello.py', '/tmp/private/hello.md', '/tmp/private/hello.js', '/tmp/private/hello.py'])
    const [py, md, js, edit] = edits as [FileEditRecord, FileEditRecord, FileEditRecord, FileEditRecord]
    for (const created of [py, md, js]) expect(created.before).toBeNull()
    // The peer README's "lines added" 8, 14, 8 (it counts content.split('\n')).
    expect([py, md, js].map((e) => (e.after ?? '').split('\n').length)).toEqual([8, 14, 8])
    // The Edit starts from exactly what the Write left, and adds the one comment line.
    expect(edit.before).toBe(py.after)
    expect((edit.after ?? '').split('\n').length - (edit.before ?? '').split('\n').length).toBe(1)
    expect(edit.after).toContain('# Simple hello world program')
    expect(edit.toolCallId).toBe(ofRole(records('codemie'), 'tool_call').find((r) => r.toolName === 'Edit')?.toolCallId)
    // The Bash `rm hello.js` is a shell command the importer cannot see the effect of.
    expect(ofKind(records('codemie'), 'shell-command')).toMatchObject<Partial<ShellCommandRecord>[]>([{ command: 'rm hello.js' }])
  })

  it('rebuilds all 71 Edit and Write results of the projects-dir session', () => {
    // jq: 65 Edit results with originalFile (2 more Edits failed: "String to replace not found")
    // and 6 Write creates.
    const edits = ofKind(records('projects'), 'file-edit')
    expect(edits).toHaveLength(71)
    expect(edits.filter((e) => e.before === null)).toHaveLength(6)
    expect(edits.every((e) => typeof e.after === 'string' && e.patch === undefined)).toBe(true)
    // Consecutive edits of one file: the next one's originalFile is this one's rebuilt result
    // 42 times. The 8 other times something else changed the file in between (a formatter hook
    // turned `with_span(…) do` into `with_span … do`, `mix credo`/`git commit` hooks ran).
    let chained = 0
    let changedElsewhere = 0
    const last = new Map<string, string | null | undefined>()
    for (const edit of edits) {
      if (last.has(edit.path)) {
        if (last.get(edit.path) === edit.before) chained++
        else changedElsewhere++
      }
      last.set(edit.path, edit.after)
    }
    expect([chained, changedElsewhere]).toEqual([42, 8])
  })

  it('names the session: ids, cwd, branch, model, first prompt', () => {
    const metas = ofKind(records('projects'), 'session-meta')
    expect(metas[0]).toEqual<SessionMetaRecord>({
      kind: 'session-meta',
      offset: expect.any(Number) as number,
      sessionId: 'ae4a77f8-aedd-4bc1-888f-c94edc91af04',
      cwd: '/home/USER/projects/spotter-worktrees/spotter-4te',
      gitBranch: 'spotter-4te',
      createdAt: Date.parse('2026-02-12T14:11:57.667Z'),
      title: 'Work on bead spotter-4te. Run bd show spotter-4te to see the issue details and…',
      titleOrigin: 'first-prompt'
    })
    // Emitted only on change: the model switches to haiku (a Skill call) and back.
    expect(metas.slice(1).map((m) => m.model)).toEqual(['claude-opus-4-6', 'claude-haiku-4-5-20251001', 'claude-opus-4-6'])
    // A command without arguments does not name a session; one with arguments does.
    expect(ofKind(records('subagent'), 'session-meta')[0]?.title).toMatch(/^\/handgemacht:create-beads websearch to learn/)
  })
})

describe('unreadable lines', () => {
  const reasons = (lines: string[]) => {
    const parser = createClaudeCodeParser()
    return lines.map((line, i) => parser.feed(line, i * 100))
  }

  it('reports a garbled line and a truncated one, and goes on with the next', () => {
    const real = readLines('codemie')[2]?.text ?? ''
    const [garbled, truncated, after] = reasons(['{"type":"user",\u0000garbage', real.slice(0, Math.floor(real.length / 2)), real])
    expect(garbled).toEqual<SkippedRecord[]>([{ kind: 'skipped', offset: 0, reason: expect.stringMatching(/^invalid JSON: /) as string }])
    expect(truncated).toEqual<SkippedRecord[]>([{ kind: 'skipped', offset: 100, reason: expect.stringMatching(/^invalid JSON: /) as string }])
    expect(after?.some((r) => r.kind === 'message')).toBe(true)
  })

  it('says what is wrong with a line it cannot use, and counts kinds it does not know as unread', () => {
    const results = reasons([
      '[1,2]',
      '{"uuid":"x"}',
      '{"type":"mystery","uuid":"y","version":"9.9.9"}',
      '{"type":"user","uuid":"z"}',
      '{"type":"assistant","message":{"content":7}}',
      '{"type":"file-history-snapshot","messageId":"m"}',
      '{"type":"system","subtype":"brand_new"}',
      '{"type":"summary"}'
    ]).map((list) => list.map((r) => (r.kind === 'skipped' ? r.reason : r.kind === 'unread' ? `unread ${r.what} of ${r.agentVersion}` : r.kind)))
    expect(results).toEqual([
      ['not a JSON object'],
      ['line has no "type"'],
      ['unread line type "mystery" of 9.9.9'],
      ['user line: message: Invalid input: expected object, received undefined'],
      ['assistant line: message.content: Invalid input'],
      ['file-history-snapshot line: snapshot: Invalid input: expected object, received undefined'],
      ['unread system line of subtype "brand_new" without text of null'],
      ['summary line: summary: Invalid input: expected string, received undefined']
    ])
  })

  it('counts a field no Claude Code version wrote before as unread, and imports the line all the same', () => {
    const real = readLines('codemie').find((l) => l.text.includes('"type":"user"'))?.text ?? ''
    const line = JSON.parse(real) as Record<string, unknown>
    const records = createClaudeCodeParser().feed(JSON.stringify({ ...line, teleportTarget: 'mars', version: '3.0.0' }), 0)
    expect(records.filter((r) => r.kind === 'unread')).toEqual([{ kind: 'unread', offset: 0, what: 'field "teleportTarget" of user lines', agentVersion: '3.0.0' }])
    expect(records.some((r) => r.kind === 'message')).toBe(true)
    // The real line as Claude Code wrote it has no field the importer does not know.
    expect(createClaudeCodeParser().feed(real, 0).filter((r) => r.kind === 'unread')).toEqual([])
  })

  it('produces nothing for the bookkeeping lines it ignores', () => {
    const progress = readLines('short').find((l) => l.text.includes('"type":"progress"'))
    const queue = readLines('toolHeavy').find((l) => l.text.includes('"type":"queue-operation"'))
    const turnDuration = readLines('projects').find((l) => l.text.includes('"subtype":"turn_duration"'))
    const stopHook = readLines('projects').find((l) => l.text.includes('"subtype":"stop_hook_summary"'))
    const parser = createClaudeCodeParser()
    for (const line of [progress, queue, turnDuration, stopHook, { text: '  ', offset: 0 }]) {
      expect(line).toBeDefined()
      expect(parser.feed(line?.text ?? '', 0)).toEqual([])
    }
    for (const type of ['last-prompt', 'permission-mode', 'attachment', 'agent-name', 'worktree-state']) {
      expect(parser.feed(JSON.stringify({ type }), 0)).toEqual([])
    }
  })
})

describe('resuming from saved state', () => {
  /** Records of the file fed to one parser, and to two with the state saved as JSON between. */
  function split(name: FixtureName, at: number): [SourceRecord[], SourceRecord[]] {
    const lines = readLines(name)
    const first = createClaudeCodeParser()
    const head = feed(lines.slice(0, at), first)
    const saved: unknown = JSON.parse(JSON.stringify(first.state()))
    const tail = feed(lines.slice(at), createClaudeCodeParser(saved))
    return [records(name), [...head, ...tail]]
  }

  it('gives the same records wherever a small file is cut', () => {
    for (const name of ['short', 'toolHeavy', 'subagent', 'codemie', 'agent'] as const) {
      const count = readLines(name).length
      for (let at = 0; at <= count; at++) {
        const [whole, resumed] = split(name, at)
        expect(resumed, `${name} cut at line ${at}`).toEqual(whole)
      }
    }
  })

  it('gives the same records for the long session cut inside a streamed response and around the compaction', () => {
    const lines = readLines('projects')
    const cuts = new Set<number>()
    for (let i = 1; i < 12; i++) cuts.add(Math.floor((lines.length * i) / 12))
    const boundary = lines.findIndex((l) => l.text.includes('"subtype":"compact_boundary"'))
    cuts.add(boundary)
    cuts.add(boundary + 1) // between the boundary and the summary line
    // Between two lines of one response whose output_tokens grew.
    const firstOf = new Map<string, number>()
    lines.forEach((line, i) => {
      const id = /"id":"(msg_[^"]+)"/.exec(line.text)?.[1]
      if (id && firstOf.has(id) && !cuts.has(i)) cuts.add(i)
      else if (id) firstOf.set(id, i)
    })
    let checked = 0
    for (const at of [...cuts].slice(0, 40)) {
      const [whole, resumed] = split('projects', at)
      expect(resumed, `cut at line ${at}`).toEqual(whole)
      checked++
    }
    expect(checked).toBe(40)
  })

  it('starts afresh from state it cannot read', () => {
    const parser = createClaudeCodeParser({ v: 99, junk: true })
    expect(parser.feed(readLines('codemie')[1]?.text ?? '', 0).some((r) => r.kind === 'session-meta')).toBe(true)
  })
})
