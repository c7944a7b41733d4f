import { describe, expect, it } from 'vitest'
import type { FileEditRecord, SourceRecord } from '../records'
import { readConversation } from './conversation'
import { sessionRecords } from './session-records'

const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n'
const meta = { sessionId: 's', projectHash: 'h', startTime: '2026-01-01T00:00:00Z', lastUpdated: '2026-01-01T00:00:00Z' }
const user = (id: string, text: string) => ({ id, timestamp: '2026-01-01T00:00:01Z', type: 'user', content: [{ text }] })
const gemini = (id: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: '2026-01-01T00:00:02Z', type: 'gemini', content: '', ...extra })

describe('reading a Gemini CLI recording', () => {
  it('a $set with messages updates known ones and adds new ones, in place', () => {
    const text = lines(meta, user('u1', 'one'), gemini('g1', { content: 'first' }), { $set: { messages: [user('u1', 'one'), gemini('g1', { content: 'first, edited' }), user('u2', 'two')] } })
    const { events } = readConversation(text)
    expect(events.map((e) => (e.kind === 'message' ? [e.message.id, e.message.content] : e.kind))).toEqual([
      ['u1', [{ text: 'one' }]],
      ['g1', 'first, edited'],
      ['u2', [{ text: 'two' }]]
    ])
  })

  it('a rewind to an unknown id leaves the whole line (as Gemini empties it); a message seen again after its rewind starts anew', () => {
    const text = lines(meta, user('u1', 'one'), gemini('g1'), { $rewindTo: 'nope' }, user('u1', 'one again'))
    const { events } = readConversation(text)
    expect(events.map((e) => (e.kind === 'rewind' ? ['rewind', e.atUid, e.abandonedUid] : ['message', e.message.id]))).toEqual([
      ['message', 'u1'],
      ['message', 'g1'],
      ['rewind', null, 'u1'],
      ['message', 'u1']
    ])
  })

  it('reports bad lines and a cut legacy file, never throws', () => {
    expect(readConversation(lines(meta, user('u1', 'x')) + '[1]\n{"foo":1}\n{"id":').problems.map((p) => p.reason)).toEqual([
      'Gemini CLI session line is not an object',
      'Gemini CLI session line of an unknown kind',
      'Gemini CLI session line is not JSON (cut short?)'
    ])
    const cut = readConversation('{\n  "sessionId": "s",\n  "messages": [\n')
    expect([cut.events.length, cut.problems.map((p) => p.reason)]).toEqual([0, ['Gemini CLI session file is not valid JSON (cut short?)']])
  })

  it('replays replace on the content the session wrote, when the call has no FileDiff', () => {
    const ok = { status: 'success', result: [{ functionResponse: { response: { output: 'Successfully created and wrote to new file: a.txt.' } } }] }
    const text = lines(
      meta,
      user('u1', 'go'),
      gemini('g1', {
        toolCalls: [
          { id: 'w', name: 'write_file', args: { file_path: 'a.txt', content: 'one two one' }, ...ok },
          { id: 'r', name: 'replace', args: { file_path: 'a.txt', old_string: 'one', new_string: '1' }, status: 'success' },
          { id: 'x', name: 'replace', args: { file_path: 'b.txt', old_string: 'q', new_string: 'r' }, status: 'success' },
          { id: 'e', name: 'replace', args: { file_path: 'a.txt', old_string: '1', new_string: '2' }, status: 'error' }
        ]
      })
    )
    const edits = sessionRecords(readConversation(text), null).filter((r: SourceRecord): r is FileEditRecord => r.kind === 'file-edit')
    expect(edits.map((e) => [e.toolCallId, e.path, e.before, e.after])).toEqual([
      ['w', 'a.txt', null, 'one two one'],
      ['r', 'a.txt', 'one two one', '1 two 1'],
      // Nothing known of b.txt: the importer reports the change as not captured.
      ['x', 'b.txt', undefined, undefined]
    ])
  })
})
