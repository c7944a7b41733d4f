import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SourceRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { copilotCliAdapter } from './adapter'
import { createCopilotParser } from './parser'

describe('Copilot CLI\'s file tools', () => {
  it('end each successful write of the fixture sessions as a file change', () => {
    const tools = copilotCliAdapter.fileTools
    const writes = new Set(tools?.writes)
    expect([...writes].filter((name) => tools?.reads.includes(name) || tools?.shell.includes(name))).toEqual([])
    const records: SourceRecord[] = []
    const parser = createCopilotParser()
    let offset = 0
    for (const line of readFileSync(join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state', '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21', 'events.jsonl'), 'utf8').split('\n')) {
      records.push(...parser.feed(line, offset))
      offset += Buffer.byteLength(line) + 1
    }
    const failed = new Set(records.flatMap((record) => (record.kind === 'message' && record.role === 'tool_result' && record.isError ? [record.toolCallId] : [])))
    const calls = records.flatMap((record) => (record.kind === 'message' && record.role === 'tool_call' && writes.has(record.toolName ?? '') && !failed.has(record.toolCallId) ? [record.toolCallId] : []))
    const accounted = new Set(records.flatMap((record) => (record.kind === 'file-edit' || record.kind === 'change-not-captured' ? [record.toolCallId] : [])))
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.filter((id) => !accounted.has(id ?? null))).toEqual([])
  })
})

describe('a Copilot CLI write the importer cannot journal', () => {
  it('is reported as not captured: str_replace_editor insert (not view), an apply_patch that does not parse', () => {
    const parser = createCopilotParser()
    const line = (type: string, data: object, id: string) => JSON.stringify({ type, data, id, timestamp: '2026-07-02T09:11:00.000Z', parentId: null })
    const requests = [
      { toolCallId: 'c-insert', name: 'str_replace_editor', arguments: { command: 'insert', path: '/w/a.md', insert_line: 1, new_str: '# A' } },
      { toolCallId: 'c-view', name: 'str_replace_editor', arguments: { command: 'view', path: '/w/a.md' } },
      { toolCallId: 'c-patch', name: 'apply_patch', arguments: { input: 'not a patch' } }
    ]
    const records = [
      line('user.message', { content: 'add a header' }, 'u1'),
      line('assistant.message', { content: '', toolRequests: requests }, 'a1'),
      ...requests.map((request, i) => line('tool.execution_complete', { toolCallId: request.toolCallId, success: true, result: { content: 'ok' } }, `r${i}`))
    ].flatMap((text, offset) => parser.feed(text, offset))
    expect(records.filter((record) => record.kind === 'change-not-captured').map((record) => record.kind === 'change-not-captured' && [record.toolCallId, record.path, record.reason])).toEqual([
      ['c-insert', '/w/a.md', 'its call gives no content Retrace can journal'],
      ['c-patch', null, 'its patch does not parse']
    ])
  })
})
