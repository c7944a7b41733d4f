import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { createCodexParser } from './parser'

// Writer-derived (fixtures/codex/paginated/PROVENANCE.txt): one Codex 0.154.0 conversation as the
// rollout recorder writes it in each history mode, and the child thread it spawned.
const SET = fileURLToPath(new URL('../../../../fixtures/codex/paginated', import.meta.url))
const PARENT = 'sessions/2026/09/18/rollout-2026-09-18T09-30-54-01a0b3da-c522-7af2-8a6d-2e1aed53b269.jsonl'
const CHILD = 'sessions/2026/09/18/rollout-2026-09-18T09-31-18-01a0b3db-1f4e-7c10-9a55-5b0e3c7d8a12.jsonl'
const CHILD_ID = '01a0b3db-1f4e-7c10-9a55-5b0e3c7d8a12'

function parseFile(path: string): SourceRecord[] {
  const parser = createCodexParser()
  const records: SourceRecord[] = []
  let offset = 0
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() !== '') records.push(...parser.feed(line, offset))
    offset += Buffer.byteLength(line) + 1
  }
  return records
}

function parseObjects(objects: unknown[]): SourceRecord[] {
  const parser = createCodexParser()
  return objects.flatMap((o, i) => parser.feed(JSON.stringify(o), i * 100))
}

const messages = (records: SourceRecord[]): MessageRecord[] => records.filter((r): r is MessageRecord => r.kind === 'message')
const ofKind = <K extends SourceRecord['kind']>(records: SourceRecord[], kind: K): Extract<SourceRecord, { kind: K }>[] =>
  records.filter((r): r is Extract<SourceRecord, { kind: K }> => r.kind === kind)

/** What the transcript shows of a record, without where in its file it was (the two files' lines differ in length). */
function shown(record: SourceRecord): unknown {
  const { offset: _offset, ...rest } = record
  return rest
}

describe('Codex paginated rollouts (item_completed events)', () => {
  const classic = parseFile(join(SET, 'classic', PARENT))
  const paginated = parseFile(join(SET, 'paginated', PARENT))

  it('give the transcript the classic rollout of the same conversation gives', () => {
    expect(ofKind(paginated, 'skipped')).toEqual([])
    expect(ofKind(paginated, 'unread')).toEqual([])
    // Every record alike but the sub-agent links, which the paginated file states twice (below).
    const transcript = (records: SourceRecord[]) => records.filter((r) => r.kind !== 'sub-agent-link').map(shown)
    expect(transcript(paginated)).toEqual(transcript(classic))
    expect(messages(paginated).length).toBeGreaterThan(10)
  })

  it('read the prompts once each, the replies and reasoning once, the tool calls paired with their outputs', () => {
    const all = messages(paginated)
    // Two turns: the mirrored prompts, not the AGENTS.md / environment item (context, unmirrored).
    expect(all.filter((m) => m.startsTurn).map((m) => m.content)).toEqual(['check whether the uploader retries failed uploads', 'thanks, rename the constant to MAX_UPLOAD_RETRIES'])
    expect(all.filter((m) => m.role === 'user')).toHaveLength(2)
    expect(all.filter((m) => m.role === 'system').map((m) => m.content.slice(0, 12))).toEqual(['<permissions', '# AGENTS.md '])
    // Each AgentMessage / Reasoning item is the copy of the response item after it.
    expect(all.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      "I'll look at the upload code first.",
      'Yes: `upload()` retries a failed request up to `RETRIES` (3) times with a backoff. I asked a worker to add a test for it.',
      'Renamed `RETRIES` to `MAX_UPLOAD_RETRIES` in src/upload.ts.'
    ])
    expect(all.filter((m) => m.role === 'reasoning')).toHaveLength(1)
    const calls = all.filter((m) => m.role === 'tool_call').map((m) => [m.toolName, m.toolCallId])
    const results = all.filter((m) => m.role === 'tool_result').map((m) => [m.toolName, m.toolCallId])
    expect(calls).toEqual([
      ['exec_command', 'call_exec_1'],
      ['spawn_agent', 'call_spawn_1'],
      ['apply_patch', 'call_patch_1']
    ])
    expect(results).toEqual(calls)
    // The FileChange item restates the apply_patch call: one edit, from the patch.
    expect(ofKind(paginated, 'file-edit').map((e) => [e.toolCallId, e.path])).toEqual([['call_patch_1', 'src/upload.ts']])
  })

  it('link the spawn call to the child thread it started (the call output and the CollabAgentToolCall item)', () => {
    const links = ofKind(paginated, 'sub-agent-link')
    expect(links.map((l) => [l.toolCallId, l.agentId])).toEqual([
      ['call_spawn_1', CHILD_ID],
      ['call_spawn_1', CHILD_ID]
    ])
    // The classic rollout has only the call's output to go by.
    expect(ofKind(classic, 'sub-agent-link').map((l) => [l.toolCallId, l.agentId])).toEqual([['call_spawn_1', CHILD_ID]])
  })

  it('read a child thread like any rollout: its task is its first prompt', () => {
    const child = parseFile(join(SET, 'paginated', CHILD))
    expect(ofKind(child, 'skipped')).toEqual([])
    expect(ofKind(child, 'session-meta')[0]).toMatchObject({ sessionId: CHILD_ID, cwd: '/work/project' })
    expect(messages(child).filter((m) => m.startsTurn).map((m) => m.content)).toEqual(['Write a unit test that shows upload() retries a failed request three times.'])
    expect(messages(child).filter((m) => m.role === 'assistant')).toHaveLength(1)
  })
})

describe('Codex item_completed events, line by line', () => {
  const meta = (mode: string) => ({ timestamp: '2026-09-18T09:31:07.106Z', type: 'session_meta', payload: { id: 't1', cwd: '/w', cli_version: '0.154.0', history_mode: mode } })
  const completed = (item: Record<string, unknown>) => ({ timestamp: '2026-09-18T09:31:08Z', type: 'event_msg', payload: { type: 'item_completed', thread_id: 't1', turn_id: 'u1', item, completed_at_ms: 1 } })
  const userItem = (text: string) => ({ timestamp: '2026-09-18T09:31:08Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })

  it('counts item types it does not read as unread, with the Codex version', () => {
    const records = parseObjects([meta('paginated'), completed({ type: 'ImageGeneration', id: 'ig1', status: 'completed', result: 'Zm9v' }), completed({ type: 'FutureItem', id: 'f1' })])
    expect(ofKind(records, 'unread').map((u) => [u.what, u.agentVersion])).toEqual([
      ['event_msg item_completed ImageGeneration', '0.154.0'],
      ['event_msg item_completed FutureItem', '0.154.0']
    ])
  })

  it('skips an item_completed event without an item, naming the place', () => {
    const records = parseObjects([meta('paginated'), { type: 'event_msg', payload: { type: 'item_completed', thread_id: 't1' } }])
    expect(ofKind(records, 'skipped')).toEqual([{ kind: 'skipped', offset: 100, reason: expect.stringContaining('event_msg item_completed: item') as string }])
  })

  it('reads a legacy rollout prompt from its user_message event only, even when an item_completed restates it', () => {
    const records = parseObjects([
      meta('legacy'),
      userItem('fix the build'),
      { type: 'event_msg', payload: { type: 'user_message', message: 'fix the build', images: [], local_images: [] } },
      completed({ type: 'UserMessage', id: 'm1', content: [{ type: 'text', text: 'fix the build', text_elements: [] }] }),
      completed({ type: 'Plan', id: 'p1', text: '<proposed_plan>\n- fix\n</proposed_plan>' }),
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } }
    ])
    expect(messages(records).map((m) => [m.role, m.content])).toEqual([
      ['user', 'fix the build'],
      ['assistant', 'done']
    ])
    expect(ofKind(records, 'unread')).toEqual([])
  })

  it('takes a paginated prompt of an image: its text parts joined, its images attached', () => {
    const records = parseObjects([
      meta('paginated'),
      completed({ type: 'UserMessage', id: 'm1', content: [{ type: 'local_image', path: '/tmp/pasted.png' }, { type: 'text', text: 'what is wrong here', text_elements: [] }] }),
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a typo' }] } }
    ])
    const [prompt] = messages(records)
    expect(prompt).toMatchObject({ role: 'user', content: 'what is wrong here', startsTurn: true })
    expect(prompt?.attachments?.length).toBe(1)
  })

  it('notes, not skips, the session_meta of the thread a child was forked from, which its rollout copies', () => {
    const child = { timestamp: 'T', type: 'session_meta', payload: { id: 'c1', forked_from_id: 'p1', source: { subagent: { thread_spawn: { parent_thread_id: 'p1', depth: 1 } } }, history_mode: 'paginated' } }
    const copied = { timestamp: 'T', type: 'session_meta', payload: { id: 'p1', source: 'cli', history_mode: 'paginated' } }
    const stranger = { timestamp: 'T', type: 'session_meta', payload: { id: 'x9' } }
    const records = parseObjects([child, copied, stranger])
    expect(ofKind(records, 'note').map((n) => n.offset)).toEqual([100])
    expect(ofKind(records, 'skipped').map((n) => n.offset)).toEqual([200])
    expect(ofKind(records, 'session-meta').map((m) => m.sessionId)).toEqual(['c1'])
  })

  it("reads a message from another agent as a turn of the recipient's, saying who sent it unless it came from above", () => {
    const talk = (author: string, content: string) => ({ timestamp: 'T', type: 'inter_agent_communication', payload: { author, recipient: '/root/worker', other_recipients: [], content, trigger_turn: true } })
    const records = parseObjects([meta('paginated'), talk('/root', 'Write the retry test.'), talk('/root/worker/tester', 'The test passes.'), { timestamp: 'T', type: 'inter_agent_communication', payload: { content: 'x' } }])
    expect(messages(records).map((m) => [m.role, m.content, m.startsTurn])).toEqual([
      ['user', 'Write the retry test.', true],
      ['user', 'From /root/worker/tester:\n\nThe test passes.', true]
    ])
    expect(ofKind(records, 'skipped').map((r) => r.offset)).toEqual([300])
  })

  it('titles the session after a thread_name_updated event', () => {
    const records = parseObjects([meta('legacy'), { type: 'event_msg', payload: { type: 'thread_name_updated', thread_id: 't1', thread_name: '  Fix the build  ' } }])
    expect(ofKind(records, 'session-meta').at(-1)).toMatchObject({ title: 'Fix the build', titleOrigin: 'custom' })
  })
})
