import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { withFileCalls } from './file-calls'

const message = (uid: string | null, fields: Partial<MessageRecord>): MessageRecord => ({ kind: 'message', offset: 0, uid, parentUid: null, agentId: null, startsTurn: false, role: 'assistant', content: '', ...fields })
const write = (id: string) => message(null, { role: 'tool_call', toolName: 'write_file', toolCallId: id, toolInput: { file_path: '/notes/a.md', content: 'a\n' } })
const result = (uid: string, id: string) => message(uid, { role: 'tool_result', toolCallId: id, content: 'Updated file /notes/a.md' })
const changes = (records: SourceRecord[]) => records.filter((record) => record.kind === 'file-edit' || record.kind === 'change-not-captured')

// A time-travel branch repeats its parent's messages up to the fork (thread-records.ts: the uid on
// a message's first record only, so a tool call of the fork's message follows it without one).
describe('CianaParrot file calls in a time-travel branch', () => {
  const prefix = [message('u1', { role: 'user', startsTurn: true, content: 'note it' }), message('a1', { content: 'Writing.' }), write('c1')]

  it('a call of the copied prefix answered there is its parent\'s: nothing in the branch', () => {
    const branch = withFileCalls([...prefix, result('t1', 'c1'), message('u2', { role: 'user', startsTurn: true, content: 'and now?' })], 't1')
    expect(changes(branch)).toEqual([])
  })

  it('a copied call the branch runs again (its own result) is the branch\'s change', () => {
    const branch = withFileCalls([...prefix, result('t2', 'c1')], 'a1')
    expect(changes(branch)).toEqual([expect.objectContaining({ kind: 'file-edit', toolCallId: 'c1', path: 'workspace/notes/a.md', after: 'a\n' })])
  })

  it('a call left without a result is reported only where it is the session\'s own', () => {
    expect(changes(withFileCalls(prefix, 'a1'))).toEqual([])
    expect(changes(withFileCalls(prefix, null))).toEqual([expect.objectContaining({ kind: 'change-not-captured', toolCallId: 'c1', reason: 'no result was recorded: the call may have changed the file' })])
  })
})
