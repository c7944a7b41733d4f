import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SourceRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { readConversation } from './conversation'
import { fileTools } from './file-tools'
import { sessionRecords } from './session-records'

const REAL = join(FIXTURES, 'gemini-cli', 'codemie', 'gemini')

type Call = { id: string; name: string; status: string }

/** Each successful call of a file-writing tool ends as a file edit or a change-not-captured record with its id. */
function unaccounted(text: string): Call[] {
  const records: SourceRecord[] = sessionRecords(readConversation(text), null)
  const accounted = new Set(records.flatMap((record) => (record.kind === 'file-edit' || record.kind === 'change-not-captured' ? [record.toolCallId] : [])))
  const legacy = JSON.parse(text) as { messages: { toolCalls?: Call[] }[] }
  const writes = legacy.messages.flatMap((message) => message.toolCalls ?? []).filter((call) => fileTools.writes.includes(call.name) && call.status === 'success')
  return writes.filter((call) => !accounted.has(call.id))
}

describe('the accounting rule on real Gemini CLI recordings (codemie-code fixtures)', () => {
  it.each(['session-2026-01-16T11-01-file-ops-37b7abef.json', 'session-2025-12-01T21-45-5b959dae.json'])('%s: every write_file / replace is a file edit', (file) => {
    expect(unaccounted(readFileSync(join(REAL, file), 'utf8'))).toEqual([])
  })

  // The real file-ops session with calls added to its last answer in the shapes Gemini CLI's writer
  // gives them: save_memory (memoryTool.ts before 2026-05: `fact`, a text resultDisplay, the file
  // ~/.gemini/GEMINI.md) and a write_file whose arguments were cut (no content).
  it('save_memory and a write_file without its content are reported, not dropped', () => {
    const legacy = JSON.parse(readFileSync(join(REAL, 'session-2026-01-16T11-01-file-ops-37b7abef.json'), 'utf8')) as { messages: { type: string; toolCalls?: unknown[] }[] }
    const last = legacy.messages.filter((message) => message.type === 'gemini').at(-1)
    if (!last) throw new Error('the recording has no answer')
    ;(last.toolCalls ??= []).push(
      { id: 'save_memory-1', name: 'save_memory', args: { fact: 'The user prefers tabs.' }, status: 'success', resultDisplay: "Okay, I've remembered that: \"The user prefers tabs.\"", timestamp: '2026-01-16T11:05:00.000Z' },
      { id: 'write_file-cut', name: 'write_file', args: { file_path: 'notes.md' }, status: 'success', timestamp: '2026-01-16T11:05:01.000Z' }
    )
    const text = JSON.stringify(legacy)
    expect(unaccounted(text).map((call) => call.id)).toEqual([])
    const reported = sessionRecords(readConversation(text), null).filter((record) => record.kind === 'change-not-captured')
    expect(reported).toEqual([
      expect.objectContaining({ toolCallId: 'save_memory-1', tool: 'save_memory', path: '~/.gemini/GEMINI.md', reason: "save_memory adds to Gemini CLI's own memory file, outside the workspace" }),
      expect.objectContaining({ toolCallId: 'write_file-cut', tool: 'write_file', path: 'notes.md', reason: 'the call keeps no content' })
    ])
  })
})
