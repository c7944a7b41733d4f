import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importTestbed } from '../testing/import-testbed'
import { createCodexParser } from './parser'

const { tempDir, runtime } = importTestbed('retrace-codex-legacy-')

const SESSION = '5973b6c0-94b8-487b-a530-2aeb6098ae0e'

/**
 * A rollout as Codex wrote them until about September 2025 (0.2x-0.3x), line for line in the
 * shapes of its RolloutRecorder of then (`rollout_writer`: the SessionMetaWithGit header, bare
 * ResponseItems, `{"record_type":"state"}` after each turn). No real file of that era is public
 * (docs/conformance.md, Coverage), so this one is written in those shapes.
 */
function legacyRollout(cwd: string): string[] {
  const user = (text: string) => ({ type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text }] })
  return [
    { id: SESSION, timestamp: '2025-08-20T10:00:00.000Z', instructions: null, git: { commit_hash: 'abc123', branch: 'main' } },
    user('<user_instructions>\n\nAlways run the tests.\n\n</user_instructions>'),
    user(`<environment_context>\n  <cwd>${cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n</environment_context>`),
    user('list the files'),
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Listing files' }], encrypted_content: null },
    { type: 'function_call', id: 'fc_1', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'ls'] }), call_id: 'call_1' },
    { type: 'function_call_output', call_id: 'call_1', output: JSON.stringify({ output: 'a.txt\n', metadata: { exit_code: 0, duration_seconds: 0.1 } }) },
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'There is a.txt.' }] },
    { record_type: 'state' },
    user('thanks'),
    { type: 'message', id: 'msg_2', role: 'assistant', content: [{ type: 'output_text', text: 'You are welcome.' }] },
    { record_type: 'state' }
  ].map((line) => JSON.stringify(line))
}

describe('Codex rollouts of the format before session_meta (0.2x-0.3x)', () => {
  it('reads the header, the bare items and the state lines: two prompts, the shell call paired, nothing skipped', () => {
    const parser = createCodexParser()
    let offset = 0
    const records = legacyRollout('/work/shop').flatMap((line) => {
      const out = parser.feed(line, offset)
      offset += line.length + 1
      return out
    })
    expect(records.filter((r) => r.kind === 'skipped')).toEqual([])
    const meta = records.filter((r) => r.kind === 'session-meta')
    expect(meta[0]).toMatchObject({ sessionId: SESSION, createdAt: Date.parse('2025-08-20T10:00:00.000Z'), gitBranch: 'main' })
    expect(meta.some((r) => r.kind === 'session-meta' && r.cwd === '/work/shop')).toBe(true)
    const messages = records.flatMap((r) => (r.kind === 'message' ? [r] : []))
    expect(messages.filter((m) => m.startsTurn).map((m) => m.content)).toEqual(['list the files', 'thanks'])
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(2) // the instructions and the environment
    expect(messages.filter((m) => m.role === 'tool_call' || m.role === 'tool_result').map((m) => [m.role, m.toolCallId])).toEqual([
      ['tool_call', 'call_1'],
      ['tool_result', 'call_1']
    ])
  })

  it('finds such a rollout for the folder its environment context names, and imports it', async () => {
    const workspace = tempDir()
    const home = join(tempDir(), 'codex')
    const day = join(home, 'sessions', '2025', '08', '20')
    mkdirSync(day, { recursive: true })
    writeFileSync(join(day, `rollout-2025-08-20T10-00-00-${SESSION}.jsonl`), `${legacyRollout(workspace).join('\n')}\n`)
    const rt = runtime({ codex: home })
    const report = await rt.imports.importWorkspace(rt.store.workspaces.open(workspace, 'shop'))
    expect(report).toMatchObject({ files: 1, sessions: 1, toolCalls: 1, skipped: [] })
    const session = rt.store.sessions.bySourceId(rt.store.workspaces.getByPath(workspace)?.id ?? 0, 'codex', SESSION)
    // Its lines carry no time: the session and its messages are dated by the header, not the import.
    const started = Date.parse('2025-08-20T10:00:00.000Z')
    expect(session).toMatchObject({ turnCount: 2, title: 'list the files', createdAt: started, updatedAt: started })
  })
})
