import { describe, expect, it } from 'vitest'
import type { OpenCodeMessage, OpenCodeSession } from './model'
import { sessionRecords } from './session-records'

const base: OpenCodeSession = { id: 'ses_1', projectId: 'p', parentId: null, directory: '/w', title: 'T', version: '1.0.0', createdAt: 1, revert: null, messages: [], label: 'session ses_1' }

function message(id: string, info: Record<string, unknown>, parts: Record<string, unknown>[]): OpenCodeMessage {
  return { id, info: { time: { created: 10 }, ...info }, parts: parts.map((data, index) => ({ id: `prt_${id}_${index}`, data })) }
}

describe('OpenCode messages as records', () => {
  it('/compact: the prompt holding only a compaction part is no turn, the summary message is the compaction', () => {
    const records = sessionRecords(
      {
        ...base,
        messages: [
          message('msg_1', { role: 'user' }, [{ type: 'compaction', auto: false }]),
          message('msg_2', { role: 'assistant', summary: true, modelID: 'm', cost: 0.5, tokens: { input: 10, output: 4, reasoning: 1, cache: { read: 2, write: 0 } } }, [{ type: 'text', text: 'We fixed the parser.' }])
        ]
      },
      { startedBy: null, parentKnown: false }
    )
    expect(records.map((record) => record.kind)).toEqual(['session-meta', 'compaction', 'usage'])
    expect(records[1]).toMatchObject({ kind: 'compaction', summary: 'We fixed the parser.' })
    expect(records[2]).toMatchObject({ usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, costUsd: 0.5 } })
  })

  it('retries, subtasks, an unknown role and a parent that is not in the store', () => {
    const records = sessionRecords(
      {
        ...base,
        parentId: 'ses_gone',
        messages: [
          message('msg_1', { role: 'user' }, [{ type: 'subtask', agent: 'general', description: 'Find the bug', prompt: 'p' }]),
          message('msg_2', { role: 'assistant' }, [{ type: 'retry', attempt: 2, error: { name: 'APIError', data: { message: 'Overloaded' } } }]),
          message('msg_3', { role: 'system' }, [])
        ]
      },
      { startedBy: null, parentKnown: false }
    )
    expect(records[0]).not.toHaveProperty('parent')
    expect(records.slice(1).map((record) => (record.kind === 'message' ? `${record.role}: ${record.content}` : `${record.kind}: ${'text' in record ? record.text : 'reason' in record ? record.reason : ''}`))).toEqual([
      'note: OpenCode: started by session ses_gone, which is not in this store (deleted?)',
      'user: (subtask for @general: Find the bug)',
      'system: OpenCode retried the model call (attempt 2): APIError: Overloaded',
      'skipped: session ses_1: message msg_3 has role "system"; skipped'
    ])
  })

  it('an edit that kept only its patch, and a default title', () => {
    const records = sessionRecords(
      {
        ...base,
        title: 'New session - 2025-10-14T10:00:00.000Z',
        messages: [
          message('msg_1', { role: 'user' }, [{ type: 'text', text: 'go' }]),
          message('msg_2', { role: 'assistant' }, [
            { type: 'tool', callID: 'c1', tool: 'edit', state: { status: 'completed', input: { filePath: '/w/a.ts' }, output: '', metadata: { filediff: { file: '/w/a.ts', patch: '@@ -1 +1 @@\n-a\n+b\n', additions: 1, deletions: 1 } }, time: { start: 11, end: 12 } } }
          ])
        ]
      },
      { startedBy: null, parentKnown: false }
    )
    expect(records[0]).not.toHaveProperty('title')
    expect(records.find((record) => record.kind === 'file-edit')).toMatchObject({ toolCallId: 'c1', path: '/w/a.ts', patch: '@@ -1 +1 @@\n-a\n+b\n' })
  })
})

describe('a command the user ran with !', () => {
  // As SessionPrompt.shell writes it: a user message holding only a synthetic text part, then an
  // assistant message (no model call: zero tokens, cost 0) with the `bash` tool part.
  const shell = [
    message('msg_1', { role: 'user', agent: 'build', model: { providerID: 'opencode', modelID: 'kimi' } }, [{ type: 'text', text: 'The following tool was executed by the user', synthetic: true }]),
    message('msg_2', { role: 'assistant', parentID: 'msg_1', mode: 'build', cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, modelID: 'kimi', providerID: 'opencode' }, [
      { type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'git status --short' }, title: '', metadata: { output: ' M a.ts\n', description: '' }, output: ' M a.ts\n', time: { start: 11, end: 12 } } }
    ])
  ]

  it('is the prompt of its turn, as typed, and costs nothing (no "0 in / 0 out")', () => {
    const records = sessionRecords({ ...base, messages: shell }, { startedBy: null, parentKnown: false })
    const messages = records.flatMap((record) => (record.kind === 'message' ? [record] : []))
    expect(messages.map((record) => `${record.role}: ${record.content}`)).toEqual(['user: !git status --short', 'tool_call: ', 'tool_result:  M a.ts\n'])
    expect(messages[0]).toMatchObject({ startsTurn: true })
    expect(messages.filter((record) => record.usage !== undefined)).toEqual([])
    expect(records.find((record) => record.kind === 'shell-command')).toMatchObject({ toolCallId: 'c1', command: 'git status --short' })
  })

  it('a prompt of synthetic text alone that no bash call answers stays as it was', () => {
    const records = sessionRecords({ ...base, messages: [shell[0] as OpenCodeMessage] }, { startedBy: null, parentKnown: false })
    expect(records.find((record) => record.kind === 'message')).toMatchObject({ role: 'user', content: '' })
  })
})

describe('every OpenCode call that changes files is a change or a change not captured', () => {
  const call = (tool: string, state: Record<string, unknown>) => sessionRecords(
    { ...base, messages: [message('msg_1', { role: 'user' }, [{ type: 'text', text: 'go' }]), message('msg_2', { role: 'assistant' }, [{ type: 'tool', callID: 'c1', tool, state }])] },
    { startedBy: null, parentKnown: false }
  ).filter((record) => record.kind === 'file-edit' || record.kind === 'change-not-captured')

  it('multiedit: each of its edits, in order (metadata.results, one edit metadata each)', () => {
    const results = [{ filediff: { file: '/w/a.ts', before: 'a\n', after: 'b\n' } }, { filediff: { file: '/w/a.ts', before: 'b\n', after: 'c\n' } }]
    expect(call('multiedit', { status: 'completed', input: { filePath: '/w/a.ts', edits: [] }, output: '', metadata: { results } })).toMatchObject([
      { kind: 'file-edit', toolCallId: 'c1', path: '/w/a.ts', before: 'a\n', after: 'b\n' },
      { kind: 'file-edit', toolCallId: 'c1', path: '/w/a.ts', before: 'b\n', after: 'c\n' }
    ])
  })

  it('an edit that kept neither content nor patch, and a write cut off before its result, are reported with why', () => {
    expect(call('edit', { status: 'completed', input: { filePath: '/w/a.ts', oldString: 'a', newString: 'b' }, output: '', metadata: { diagnostics: {} } })).toEqual([
      { kind: 'change-not-captured', offset: expect.any(Number) as number, toolCallId: 'c1', tool: 'edit', path: '/w/a.ts', reason: 'OpenCode kept neither the file before and after nor a patch for this call' }
    ])
    expect(call('write', { status: 'running', input: { filePath: '/w/b.md', content: 'x' }, time: { start: 1 } })).toMatchObject([
      { kind: 'change-not-captured', tool: 'write', path: '/w/b.md', reason: 'the call was cut off before OpenCode kept its result: whether it changed the file is not known' }
    ])
    // One that failed changed nothing: nothing to account for.
    expect(call('edit', { status: 'error', input: { filePath: '/w/a.ts' }, error: 'Error: oldString not found' })).toEqual([])
    expect(call('read', { status: 'completed', input: { filePath: '/w/a.ts' }, output: 'a' })).toEqual([])
  })
})
