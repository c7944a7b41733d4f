import { describe, expect, it } from 'vitest'
import type { FileEditRecord, MessageRecord, SourceRecord } from '../records'
import { createClaudeCodeParser } from './parser'

/**
 * Small lines made to match the shapes docs/formats.md §2.1 documents, for what the real fixtures
 * do not contain: MultiEdit, Write updates, Edit results without originalFile, replaceAll,
 * file-history-delta (Claude Code ≥ 2.1.220), images, redacted thinking, titles, forks, API
 * errors, the user's `!` commands, lines with several content blocks.
 */

let counter = 0
function line(fields: Record<string, unknown>): string {
  counter++
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    sessionId: 's-1',
    cwd: '/w',
    timestamp: '2026-01-01T00:00:00.000Z',
    uuid: `u-${counter}`,
    ...fields
  })
}

const user = (content: unknown, extra: Record<string, unknown> = {}) => line({ type: 'user', message: { role: 'user', content }, ...extra })
const assistant = (content: unknown[], extra: Record<string, unknown> = {}, message: Record<string, unknown> = {}) =>
  line({ type: 'assistant', message: { id: 'msg_1', model: 'claude-x', role: 'assistant', content, ...message }, ...extra })
const toolUse = (id: string, name: string, input: unknown) => assistant([{ type: 'tool_use', id, name, input }], {}, { id: `msg_${id}` })
const toolResult = (id: string, toolUseResult: unknown, content = 'ok') =>
  user([{ type: 'tool_result', tool_use_id: id, content }], { toolUseResult })

function parse(lines: string[]): SourceRecord[] {
  const parser = createClaudeCodeParser()
  return lines.flatMap((text, i) => parser.feed(text, i))
}
const edits = (records: SourceRecord[]) => records.filter((r): r is FileEditRecord => r.kind === 'file-edit')
const messages = (records: SourceRecord[]) => records.filter((r): r is MessageRecord => r.kind === 'message')

describe('file edits from tool results', () => {
  const original = 'a\nb\nc\nb\n'

  it('Edit: applies structuredPatch to originalFile', () => {
    const records = parse([
      toolUse('t1', 'Edit', { file_path: '/w/f.txt', old_string: 'c', new_string: 'C' }),
      toolResult('t1', {
        filePath: '/w/f.txt',
        oldString: 'c',
        newString: 'C',
        originalFile: original,
        replaceAll: false,
        userModified: false,
        structuredPatch: [{ oldStart: 2, oldLines: 3, newStart: 2, newLines: 3, lines: [' b', '-c', '+C', ' b'] }]
      })
    ])
    expect(edits(records)).toEqual([{ kind: 'file-edit', offset: 1, toolCallId: 't1', path: '/w/f.txt', before: original, after: 'a\nb\nC\nb\n' }])
  })

  it('Edit: falls back to the string replacement, honouring replaceAll, when the patch does not fit', () => {
    const result = (replaceAll: boolean) => ({
      filePath: '/w/f.txt',
      oldString: 'b',
      newString: 'B',
      originalFile: original,
      replaceAll,
      structuredPatch: [{ oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, lines: ['-zz', '+ZZ'] }]
    })
    const records = parse([
      toolUse('t1', 'Edit', {}),
      toolResult('t1', result(false)),
      toolUse('t2', 'Edit', {}),
      toolResult('t2', result(true))
    ])
    expect(edits(records).map((e) => e.after)).toEqual(['a\nB\nc\nb\n', 'a\nB\nc\nB\n'])
  })

  it('Edit without originalFile: keeps the patch text only', () => {
    const records = parse([
      toolUse('t1', 'Edit', {}),
      toolResult('t1', {
        filePath: 'rel/f.txt',
        oldString: 'c',
        newString: 'C',
        structuredPatch: [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 2, lines: [' b', '-c', '+C'] }]
      })
    ])
    expect(edits(records)).toEqual([{ kind: 'file-edit', offset: 1, toolCallId: 't1', path: 'rel/f.txt', patch: '@@ -2,2 +2,2 @@\n b\n-c\n+C' }])
  })

  it('Edit with neither the file nor a patch nor a match: keeps what is known', () => {
    const records = parse([
      toolUse('t1', 'Edit', {}),
      toolResult('t1', { filePath: '/w/f.txt', oldString: 'zzz', newString: 'y', originalFile: original, structuredPatch: [] })
    ])
    expect(edits(records)).toEqual([{ kind: 'file-edit', offset: 1, toolCallId: 't1', path: '/w/f.txt', before: original }])
  })

  it('MultiEdit: applies each edit in turn to originalFileContents', () => {
    const records = parse([
      toolUse('t1', 'MultiEdit', {}),
      toolResult('t1', {
        filePath: '/w/f.txt',
        originalFileContents: original,
        edits: [
          { old_string: 'a', new_string: 'A', replace_all: false },
          { old_string: 'b', new_string: 'B', replace_all: true }
        ],
        structuredPatch: []
      })
    ])
    expect(edits(records)[0]).toMatchObject({ before: original, after: 'A\nB\nc\nB\n' })
  })

  it('Write: create has no before, update replaces originalFile', () => {
    const records = parse([
      toolUse('t1', 'Write', { file_path: '/w/new.txt', content: 'x\n' }),
      toolResult('t1', { type: 'create', filePath: '/w/new.txt', content: 'x\n', structuredPatch: [], originalFile: null }),
      toolUse('t2', 'Write', { file_path: '/w/f.txt', content: 'y\n' }),
      toolResult('t2', { type: 'update', filePath: '/w/f.txt', content: 'y\n', structuredPatch: [], originalFile: original })
    ])
    expect(edits(records).map((e) => [e.toolCallId, e.before, e.after])).toEqual([
      ['t1', null, 'x\n'],
      ['t2', original, 'y\n']
    ])
  })

  it('ignores results of other tools, even with a filePath (ExitPlanMode) or a failed Edit', () => {
    const records = parse([
      toolUse('t1', 'ExitPlanMode', { plan: '…' }),
      toolResult('t1', { filePath: '/w/plan.md', plan: '…', isAgent: false }),
      toolUse('t2', 'Edit', {}),
      user([{ type: 'tool_result', tool_use_id: 't2', content: 'String to replace not found', is_error: true }], {
        toolUseResult: 'Error: String to replace not found in file.'
      })
    ])
    expect(edits(records)).toEqual([])
    expect(messages(records).filter((m) => m.role === 'tool_result').map((m) => [m.toolName, m.isError])).toEqual([
      ['ExitPlanMode', false],
      ['Edit', true]
    ])
  })

  it('recognises an edit result by its shape when the call is not known (it was in an earlier, unsaved part)', () => {
    const records = parse([toolResult('t9', { type: 'create', filePath: '/w/n.txt', content: 'n', originalFile: null, structuredPatch: [] })])
    expect(edits(records)).toMatchObject([{ toolCallId: 't9', before: null, after: 'n' }])
  })
})

describe('Write calls without a result', () => {
  it('keep their content until the result only within a budget: past it, the change is reported', () => {
    const big = 'x'.repeat(5 * 1024 * 1024)
    const records = parse([
      toolUse('w1', 'Write', { file_path: '/w/a.txt', content: big }),
      toolUse('w2', 'Write', { file_path: '/w/b.txt', content: big }),
      user([{ type: 'tool_result', tool_use_id: 'w1', content: 'File created successfully at: /w/a.txt' }]),
      user([{ type: 'tool_result', tool_use_id: 'w2', content: 'File created successfully at: /w/b.txt' }])
    ])
    expect(edits(records).map((r) => [r.path, r.before, r.after?.length])).toEqual([['/w/a.txt', null, big.length]])
    expect(records.filter((r) => r.kind === 'change-not-captured').map((r) => r.kind === 'change-not-captured' && r.path)).toEqual(['/w/b.txt'])
  })
})

describe('NotebookEdit (no real history with one was found: shapes from Claude Code 2.1 results)', () => {
  const notebook = { notebook_path: '/w/nb.ipynb', cell_id: 'c1', new_source: 'print(2)', edit_mode: 'replace' }
  it('journals the notebook when the result keeps it before and after', () => {
    const records = parse([
      toolUse('n1', 'NotebookEdit', notebook),
      toolResult('n1', { ...notebook, cell_type: 'code', language: 'python', error: '', original_file: '{"cells":[1]}', updated_file: '{"cells":[2]}' }, 'Updated cell c1 with print(2)')
    ])
    expect(edits(records)).toEqual([{ kind: 'file-edit', offset: 1, toolCallId: 'n1', path: '/w/nb.ipynb', before: '{"cells":[1]}', after: '{"cells":[2]}' }])
  })

  it('reports the cell edit when the result keeps only the cell, or when there is no result', () => {
    const records = parse([
      toolUse('n1', 'NotebookEdit', notebook),
      toolResult('n1', { ...notebook, cell_type: 'code', language: 'python', error: '' }, 'Updated cell c1 with print(2)'),
      toolUse('n2', 'NotebookEdit', notebook),
      user([{ type: 'tool_result', tool_use_id: 'n2', content: 'Updated cell c1 with print(2)' }]),
      toolUse('n3', 'NotebookEdit', notebook),
      user([{ type: 'tool_result', tool_use_id: 'n3', content: 'Notebook file does not exist.', is_error: true }])
    ])
    expect(records.filter((r) => r.kind === 'change-not-captured').map((r) => r.kind === 'change-not-captured' && [r.toolCallId, r.tool, r.path])).toEqual([
      ['n1', 'NotebookEdit', '/w/nb.ipynb'],
      ['n2', 'NotebookEdit', '/w/nb.ipynb']
    ])
    expect(edits(records)).toEqual([])
  })
})

describe('file-history lines', () => {
  it('reads a delta as one file added to the snapshot of its turn', () => {
    const records = parse([
      JSON.stringify({
        type: 'file-history-delta',
        messageId: 'assistant-7',
        snapshotMessageId: 'turn-1',
        trackingPath: 'src/a.ts',
        backup: { backupFileName: '0123456789abcdef@v1', version: 1, backupTime: '2026-01-01T00:00:01.000Z', realParentDir: '/w/src' },
        timestamp: '2026-01-01T00:00:01.000Z'
      })
    ])
    expect(records).toEqual([
      {
        kind: 'file-backups',
        offset: 0,
        messageUid: 'turn-1',
        mode: 'delta',
        files: [{ path: 'src/a.ts', backupFileName: '0123456789abcdef@v1', version: 1, backupTime: Date.parse('2026-01-01T00:00:01.000Z') }]
      }
    ])
  })

  it('reports a delta without its file', () => {
    expect(parse([JSON.stringify({ type: 'file-history-delta', messageId: 'm' })])).toMatchObject([
      { kind: 'skipped', reason: 'file-history-delta line: trackingPath: Invalid input: expected string, received undefined' }
    ])
  })
})

describe('messages', () => {
  it('keeps images out of the text', () => {
    const [meta, prompt] = parse([
      user([
        { type: 'text', text: 'what is wrong here?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }
      ])
    ])
    expect(meta).toMatchObject({ kind: 'session-meta', title: 'what is wrong here? [image: image/png]', titleOrigin: 'first-prompt' })
    expect(prompt).toMatchObject({
      kind: 'message',
      role: 'user',
      startsTurn: true,
      content: 'what is wrong here?\n[image: image/png]',
      attachments: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]
    })
  })

  it('reads thinking, redacted thinking, text and tool calls; drops the <synthetic> model', () => {
    const records = messages(
      parse([
        assistant([{ type: 'thinking', thinking: 'hmm', signature: 'sig' }]),
        assistant([{ type: 'redacted_thinking', data: 'xx' }]),
        assistant([{ type: 'text', text: 'No response requested.' }], {}, { id: 'msg_s', model: '<synthetic>' }),
        assistant([{ type: 'text', text: 'API Error: 529 overloaded' }], { isApiErrorMessage: true }, { id: 'msg_e', model: '<synthetic>' })
      ])
    )
    expect(records.map((r) => [r.role, r.content, r.model, r.isError])).toEqual([
      ['reasoning', 'hmm', 'claude-x', undefined],
      ['reasoning', '[redacted thinking]', 'claude-x', undefined],
      ['assistant', 'No response requested.', undefined, undefined],
      ['assistant', 'API Error: 529 overloaded', undefined, true]
    ])
  })

  it('gives each block of a multi-block line its own uid, chained, and hangs the next line below the last', () => {
    const records = messages(
      parse([
        line({ type: 'user', uuid: 'p', message: { role: 'user', content: 'go' } }),
        line({
          type: 'assistant',
          uuid: 'a',
          parentUuid: 'p',
          message: {
            id: 'msg_a',
            model: 'claude-x',
            content: [
              { type: 'text', text: 'Reading both.' },
              { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/a' } },
              { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/w/b' } }
            ],
            usage: { input_tokens: 10, output_tokens: 5 }
          }
        }),
        line({
          type: 'user',
          uuid: 'r',
          parentUuid: 'a',
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'A' }] },
              { type: 'tool_result', tool_use_id: 't2', content: 'B' }
            ]
          }
        })
      ])
    )
    expect(records.map((r) => [r.uid, r.parentUid, r.role])).toEqual([
      ['p', null, 'user'],
      ['a', 'p', 'assistant'],
      ['a:1', 'a', 'tool_call'],
      ['a:2', 'a:1', 'tool_call'],
      ['r', 'a:2', 'tool_result'],
      ['r:1', 'r', 'tool_result']
    ])
    // Usage once, on the first record of the response.
    expect(records.filter((r) => r.usage).map((r) => [r.uid, r.usage])).toEqual([['a', { inputTokens: 10, outputTokens: 5 }]])
    expect(records[2]).toMatchObject({ toolName: 'Read', toolCallId: 't1', toolInput: { file_path: '/w/a' }, content: '/w/a' })
  })

  it('hangs a message whose parent was a progress line below that line’s parent', () => {
    const records = messages(
      parse([
        line({ type: 'assistant', uuid: 'a', message: { id: 'm', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] } }),
        line({ type: 'progress', uuid: 'p1', parentUuid: 'a', data: { type: 'hook_progress' } }),
        line({ type: 'progress', uuid: 'p2', parentUuid: 'p1', data: { type: 'hook_progress' } }),
        line({ type: 'user', uuid: 'r', parentUuid: 'p2', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] } })
      ])
    )
    expect(records.map((r) => [r.uid, r.parentUid])).toEqual([
      ['a', null],
      ['r', 'a']
    ])
  })

  it('attributes a streamed response’s usage once, plus what grew on later lines', () => {
    const chunk = (text: string, output: number) =>
      assistant([{ type: 'text', text }], {}, { id: 'msg_s', usage: { input_tokens: 3, output_tokens: output, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 } })
    const records = messages(parse([chunk('one', 1), chunk('two', 1), chunk('three', 50), assistant([{ type: 'text', text: 'x' }], {}, { id: 'msg_t', usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: null } })]))
    expect(records.map((r) => r.usage)).toEqual([
      { inputTokens: 3, outputTokens: 1, cacheReadTokens: 100, cacheWriteTokens: 7 },
      undefined,
      { outputTokens: 49 },
      { inputTokens: 1, outputTokens: 2 }
    ])
  })

  it('reads the user’s ! command as a turn and a shell command', () => {
    const records = parse([user('<bash-input>git stash</bash-input>'), user('<bash-stdout>Saved</bash-stdout><bash-stderr></bash-stderr>')])
    expect(records.filter((r) => r.kind !== 'session-meta')).toEqual([
      expect.objectContaining({ kind: 'message', role: 'user', startsTurn: true, content: '! git stash' }),
      { kind: 'shell-command', offset: 0, toolCallId: null, command: 'git stash' },
      expect.objectContaining({ kind: 'message', role: 'system', startsTurn: false, content: 'Saved' })
    ])
  })

  it('reads system lines as readable system messages', () => {
    const records = messages(
      parse([
        line({ type: 'system', subtype: 'api_error', level: 'error', error: { error: { message: 'Overloaded' } }, retryAttempt: 2, maxRetries: 10, retryInMs: 4000 }),
        line({ type: 'system', subtype: 'informational', content: 'Plan mode is on', level: 'info' }),
        line({ type: 'system', subtype: 'stop_hook_summary', hookErrors: ['lint failed'], preventedContinuation: true, stopReason: 'fix lint' }),
        line({ type: 'system', subtype: 'stop_hook_summary', hookErrors: [], preventedContinuation: false }),
        line({ type: 'system', subtype: 'shiny_new', content: 'Something \u001b[1mnew\u001b[22m' })
      ])
    )
    expect(records.map((r) => [r.role, r.content, r.isError])).toEqual([
      ['system', 'API error (retry 2/10 in 4 s): Overloaded', true],
      ['system', 'Plan mode is on', undefined],
      ['system', 'Stop hook prevented continuation: fix lint\nlint failed', undefined],
      ['system', 'Something new', undefined]
    ])
  })
})

describe('session meta', () => {
  it('takes titles from summary, custom-title and ai-title lines, and the first prompt only when none came first', () => {
    const records = parse([
      JSON.stringify({ type: 'summary', summary: 'Fix the login bug' }),
      user('please fix login'),
      JSON.stringify({ type: 'ai-title', aiTitle: 'Login fix' }),
      JSON.stringify({ type: 'custom-title', customTitle: 'My login work' }),
      JSON.stringify({ type: 'custom-title', customTitle: 'My login work' })
    ])
    expect(records.filter((r) => r.kind === 'session-meta' && r.title).map((r) => r.kind === 'session-meta' && [r.titleOrigin, r.title])).toEqual([
      ['summary', 'Fix the login bug'],
      ['ai', 'Login fix'],
      ['custom', 'My login work']
    ])
  })

  it('gives a summary naming a message (leafUuid) to the session holding it, so the first prompt still names this one', () => {
    const records = parse([JSON.stringify({ type: 'summary', summary: 'Fix the login bug', leafUuid: 'x' }), user('please fix login')])
    expect(records.filter((r) => r.kind === 'session-meta' && r.title).map((r) => r.kind === 'session-meta' && [r.titleOrigin, r.title, r.titleLeafUid])).toEqual([
      ['summary', 'Fix the login bug', 'x'],
      ['first-prompt', 'please fix login', undefined]
    ])
  })

  it('emits cwd, branch, session and fork only when they change', () => {
    const forkedFrom = { sessionId: 'parent', messageUuid: 'm-9' }
    const records = parse([
      user('one', { gitBranch: 'main', forkedFrom }),
      user('two', { gitBranch: 'main', forkedFrom }),
      user('three', { gitBranch: 'feature', forkedFrom })
    ]).filter((r) => r.kind === 'session-meta')
    expect(records).toEqual([
      {
        kind: 'session-meta',
        offset: 0,
        sessionId: 's-1',
        cwd: '/w',
        gitBranch: 'main',
        forkedFrom: { sessionId: 'parent', messageUid: 'm-9' },
        createdAt: Date.parse('2026-01-01T00:00:00.000Z'),
        title: 'one',
        titleOrigin: 'first-prompt'
      },
      { kind: 'session-meta', offset: 2, gitBranch: 'feature' }
    ])
  })

  it('notes a pull request link', () => {
    expect(parse([JSON.stringify({ type: 'pr-link', prNumber: 12, prUrl: 'https://github.com/o/r/pull/12', prRepository: 'o/r' })])).toEqual([
      { kind: 'note', offset: 0, text: 'Pull request #12: https://github.com/o/r/pull/12' }
    ])
  })

  it('marks sub-agent lines with their agent id', () => {
    const [, prompt] = parse([user('Warmup', { isSidechain: true, agentId: 'abc123' })])
    expect(prompt).toMatchObject({ kind: 'message', agentId: 'abc123' })
  })
})

describe('sub-agent links', () => {
  // The text of a real 2.1.114 Agent result (fixtures/claude-code/claude-code-log, -experiments-worktrees).
  const resultText = 'Done.\nagentId: ab1e6e141221a29ab (use SendMessage with to: \'ab1e6e141221a29ab\' to continue this agent)\nworktreePath: -experiments/worktrees/.claude/worktrees/agent-ab1e6e14'

  it('reads the agent id from an Agent result\'s text when the result has no structured agentId', () => {
    const records = parse([toolUse('t1', 'Agent', { description: 'Research Steve Yegge Beads', prompt: 'You are **carol**' }), toolResult('t1', undefined, resultText)])
    expect(records.filter((r) => r.kind === 'sub-agent-link')).toEqual([{ kind: 'sub-agent-link', offset: 1, toolCallId: 't1', agentId: 'ab1e6e141221a29ab', description: 'Research Steve Yegge Beads' }])
  })

  it('takes no agent id from the text of other tools', () => {
    const records = parse([toolUse('t1', 'Bash', { command: 'cat notes' }), toolResult('t1', undefined, resultText)])
    expect(records.filter((r) => r.kind === 'sub-agent-link')).toEqual([])
  })
})

describe('record types of Claude Code 2.1.2xx', () => {
  // Shapes from readers of real 2.1.2xx sessions (docs/formats.md §2.1, "Line types").
  it('passes over its bookkeeping, shows away summaries and reports what it does not know as unread', () => {
    const records = parse([
      JSON.stringify({ type: 'cost-state', sessionId: 's-1', totalCostUSD: 7.17, modelUsage: { 'claude-x': { inputTokens: 4130, outputTokens: 42354 } } }),
      JSON.stringify({ type: 'atis-latch', atis: '', sessionId: 's-1' }),
      line({ type: 'system', subtype: 'away_summary', content: 'While you were away: the tests pass.', version: '2.1.258' }),
      line({ type: 'system', subtype: 'model_consent_fallback', version: '2.1.258' }),
      JSON.stringify({ type: 'artifact-comment-monitor', sessionId: 's-1', version: '2.1.258' }),
      assistant([{ type: 'container_upload', file_id: 'f1' }], { version: '2.1.258' })
    ])
    expect(records.filter((r) => r.offset < 2)).toEqual([])
    expect(messages(records).map((m) => [m.role, m.content])).toEqual([['system', 'While you were away: the tests pass.']])
    expect(records.filter((r) => r.kind === 'unread').map((r) => [r.offset, r.kind === 'unread' ? [r.what, r.agentVersion] : null])).toEqual([
      [3, ['system line of subtype "model_consent_fallback" without text', '2.1.258']],
      [4, ['line type "artifact-comment-monitor"', '2.1.258']],
      [5, ['assistant block "container_upload"', '2.1.258']]
    ])
    expect(records.filter((r) => r.kind === 'skipped')).toEqual([])
  })
})
