import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { copilotRoots, discoverCopilotFiles } from './discover'
import { createCopilotParser } from './parser'
import { readWorkspaceYaml } from './workspace-yaml'

const ROOT = join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state')
const MAIN = join(ROOT, '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21', 'events.jsonl')
const LEGACY = join(ROOT, '1a7c3e55-9f20-4d6b-8e41-2b6f0d8c9e33.jsonl')
const CARRIED_OVER = join(ROOT, 'c4e1a2b3-5d6f-4a7b-8c9d-0e1f2a3b4c5d.jsonl')

/** Feed a file's lines; with `cutAt`, through a fresh parser resumed from the saved state after that many lines. */
function parse(path: string, cutAt?: number): SourceRecord[] {
  const records: SourceRecord[] = []
  let parser = createCopilotParser()
  let offset = 0
  readFileSync(path, 'utf8').split('\n').forEach((line, index) => {
    if (index === cutAt) parser = createCopilotParser(JSON.parse(JSON.stringify(parser.state())))
    records.push(...parser.feed(line, offset))
    offset += Buffer.byteLength(line) + 1
  })
  return records
}

const messages = (records: SourceRecord[]) => records.filter((r): r is MessageRecord => r.kind === 'message')

describe('the Copilot CLI events parser', () => {
  it('counts an event its writer did not have as unread, by Copilot version, and leaves its bookkeeping out', () => {
    const records = parse(MAIN)
    // Every event type of the writer-derived session is read or left out on purpose.
    expect(records.filter((r) => r.kind === 'unread')).toEqual([])
    const parser = createCopilotParser()
    parser.feed(readFileSync(MAIN, 'utf8').split('\n')[0] ?? '', 0)
    const event = (type: string) => JSON.stringify({ type, data: {}, id: type, timestamp: '2026-07-02T09:11:00.000Z', parentId: null })
    expect(parser.feed(event('session.teleported'), 100)).toEqual([{ kind: 'unread', offset: 100, what: 'event "session.teleported"', agentVersion: '1.0.63' }])
    expect(parser.feed(event('assistant.turn_start'), 200)).toEqual([])
  })

  it('reads the older single-file layout: a prompt, its bash call paired with the result, the answer', () => {
    const records = parse(LEGACY)
    expect(messages(records).map((m) => [m.role, m.toolName ?? null, m.startsTurn])).toEqual([
      ['user', null, true],
      ['tool_call', 'bash', false],
      ['tool_result', 'bash', false],
      ['assistant', null, false]
    ])
    expect(records.filter((r) => r.kind === 'shell-command')).toEqual([expect.objectContaining({ command: 'ls', toolCallId: 'toolu_vrtx_01Lst9' })])
    expect(records.find((r) => r.kind === 'session-meta' && r.sessionId)).toMatchObject({ sessionId: '1a7c3e55-9f20-4d6b-8e41-2b6f0d8c9e33' })
    expect(records.some((r) => r.kind === 'skipped')).toBe(false)
  })

  it('reads a first-release session carried over by session.import_legacy as its first turn', () => {
    const records = parse(CARRIED_OVER)
    expect(messages(records).map((m) => [m.role, m.toolName ?? null, m.toolCallId ?? null, m.content.slice(0, 24)])).toEqual([
      ['user', null, null, 'What is in package.json?'],
      ['assistant', null, null, 'I’ll look.'],
      ['tool_call', 'str_replace_editor', 'toolu_01Pkg', '{"command":"view","path"'],
      ['tool_result', 'str_replace_editor', 'toolu_01Pkg', '1. {\n2.   "name": "notes'],
      ['assistant', null, null, 'It only names the packag'],
      ['user', null, null, 'Thanks. Does it have a t'],
      ['assistant', null, null, 'No, there is no scripts ']
    ])
    expect(messages(records).filter((m) => m.startsTurn)).toHaveLength(2)
    expect(messages(records)[2]?.toolInput).toEqual({ command: 'view', path: '/home/dev/notes-app/package.json' })
    expect(records.find((r) => r.kind === 'session-meta' && r.title)).toMatchObject({ title: 'What is in package.json?' })
  })

  it('gives the same records when resumed from its saved state at any line', () => {
    const whole = JSON.stringify(parse(MAIN))
    const lines = readFileSync(MAIN, 'utf8').split('\n').length
    for (const cut of [3, 12, 20, 33, lines - 3]) expect(JSON.stringify(parse(MAIN, cut)), `cut at ${cut}`).toBe(whole)
  })

  it('keys a sub-agent by its task call, its unmarked prompt included, and links it once', () => {
    const records = parse(MAIN)
    const sub = messages(records).filter((m) => m.agentId !== null)
    expect(sub.map((m) => [m.role, m.agentId])).toEqual([
      ['user', 'call_Tsk8rN2v5'],
      ['tool_call', 'call_Tsk8rN2v5'],
      ['tool_result', 'call_Tsk8rN2v5'],
      ['assistant', 'call_Tsk8rN2v5']
    ])
    const links = records.filter((r) => r.kind === 'sub-agent-link')
    expect(links.map((r) => [r.toolCallId, r.agentId, r.description])).toEqual([['call_Tsk8rN2v5', 'call_Tsk8rN2v5', 'Summarise README']])
  })

  it('gives a background sub-agent its prompt though it comes after the task call returned, and keeps the user\'s own prompts', () => {
    const parser = createCopilotParser()
    const feed = (event: object) => messages(parser.feed(JSON.stringify(event), 0))
    feed({ type: 'user.message', data: { content: 'start a background research agent' }, id: 'b1' })
    const args = { prompt: 'research the codebase', mode: 'background', agent_type: 'explore' }
    feed({ type: 'tool.execution_start', data: { toolCallId: 'toolu_bg', toolName: 'task', arguments: args }, id: 'b2' })
    feed({ type: 'tool.execution_complete', data: { toolCallId: 'toolu_bg', success: true, result: { content: 'Agent started in background' } }, id: 'b3' })
    feed({ type: 'subagent.started', data: { toolCallId: 'toolu_bg', agentName: 'explore', agentDisplayName: 'explore', agentDescription: 'Research' }, id: 'b4' })
    expect(feed({ type: 'user.message', data: { content: 'meanwhile, what time is it?' }, id: 'b5' }).map((m) => m.agentId)).toEqual([null])
    expect(feed({ type: 'user.message', data: { content: 'research the codebase' }, id: 'b6' }).map((m) => m.agentId)).toEqual(['toolu_bg'])
    // Only once: the same words later are the user's.
    expect(feed({ type: 'user.message', data: { content: 'research the codebase' }, id: 'b7' }).map((m) => m.agentId)).toEqual([null])
  })

  it('turns apply_patch calls (GPT models) into file edits once they succeeded', () => {
    const parser = createCopilotParser()
    const patch = '*** Begin Patch\n*** Add File: notes/a.md\n+hello\n*** End Patch'
    const line = (event: object) => JSON.stringify(event)
    parser.feed(line({ type: 'session.start', data: { sessionId: 's', context: { cwd: '/w' } }, id: 'e0' }), 0)
    parser.feed(line({ type: 'user.message', data: { content: 'add a note' }, id: 'e1' }), 10)
    parser.feed(line({ type: 'assistant.message', data: { content: '', toolRequests: [{ toolCallId: 'c1', name: 'apply_patch', arguments: patch, type: 'custom' }] }, id: 'e2' }), 20)
    const failed = parser.feed(line({ type: 'tool.execution_complete', data: { toolCallId: 'c1', success: false, error: { message: 'no' } }, id: 'e3' }), 30)
    expect(failed.filter((r) => r.kind === 'file-edit')).toEqual([])
    parser.feed(line({ type: 'assistant.message', data: { content: '', toolRequests: [{ toolCallId: 'c2', name: 'apply_patch', arguments: { input: patch }, type: 'custom' }] }, id: 'e4' }), 40)
    const done = parser.feed(line({ type: 'tool.execution_complete', data: { toolCallId: 'c2', success: true, result: { content: 'ok' } }, id: 'e5' }), 50)
    expect(done.filter((r) => r.kind === 'file-edit')).toEqual([{ kind: 'file-edit', offset: 50, toolCallId: 'c2', path: '/w/notes/a.md', before: null, after: 'hello\n' }])
  })

  it('skips a bad line with its reason and goes on', () => {
    const parser = createCopilotParser()
    expect(parser.feed('{"type":"user.mess', 0)).toEqual([{ kind: 'skipped', offset: 0, reason: 'not a JSON line (cut short?)' }])
    expect(parser.feed('{"data":{}}', 20)).toEqual([{ kind: 'skipped', offset: 20, reason: 'event without a type' }])
    expect(messages(parser.feed('{"type":"user.message","data":{"content":"hi"}}', 40))).toHaveLength(1)
  })
})

describe('Copilot CLI discovery', () => {
  it('looks in $COPILOT_HOME or ~/.copilot, and in a not yet migrated $XDG_STATE_HOME/.copilot', () => {
    expect(copilotRoots({ HOME: '/home/a' })).toEqual(['/home/a/.copilot/session-state'])
    expect(copilotRoots({ HOME: '/home/a', COPILOT_HOME: '/data/cp' })).toEqual(['/data/cp/session-state'])
    expect(copilotRoots({ HOME: '/home/a', XDG_STATE_HOME: '/home/a/.local/state' })).toEqual(['/home/a/.copilot/session-state', '/home/a/.local/state/.copilot/session-state'])
  })

  it('finds both layouts with the cwd workspace.yaml or session.start records', async () => {
    const files = await discoverCopilotFiles([ROOT])
    expect(files.map((f) => [f.sessionId, f.cwd, f.path.slice(ROOT.length + 1)]).sort()).toEqual([
      ['1a7c3e55-9f20-4d6b-8e41-2b6f0d8c9e33', null, '1a7c3e55-9f20-4d6b-8e41-2b6f0d8c9e33.jsonl'],
      ['5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21', '/home/dev/notes-app', '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21/events.jsonl'],
      ['8b2e6c90-71d4-4e0b-b3a8-5f2d9c4e7a10', '/home/dev/other-app', '8b2e6c90-71d4-4e0b-b3a8-5f2d9c4e7a10/events.jsonl'],
      ['c4e1a2b3-5d6f-4a7b-8c9d-0e1f2a3b4c5d', null, 'c4e1a2b3-5d6f-4a7b-8c9d-0e1f2a3b4c5d.jsonl']
    ])
  })

  it('finds the sessions of a Copilot home added as a folder (its session-state inside)', async () => {
    const files = await discoverCopilotFiles([join(ROOT, '..')])
    expect(files.map((f) => f.sessionId).sort()).toEqual(['1a7c3e55-9f20-4d6b-8e41-2b6f0d8c9e33', '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21', '8b2e6c90-71d4-4e0b-b3a8-5f2d9c4e7a10', 'c4e1a2b3-5d6f-4a7b-8c9d-0e1f2a3b4c5d'])
  })

  it('reads workspace.yaml scalars: plain, quoted, folded onto the next lines', () => {
    expect(readWorkspaceYaml('id: abc\ncwd: "/home/a/my: project"\nsummary: a long\n  folded title\nname: \'it\'\'s\'\nbranch: ~\n')).toEqual({ id: 'abc', cwd: '/home/a/my: project', summary: 'a long folded title', name: "it's" })
  })
})
