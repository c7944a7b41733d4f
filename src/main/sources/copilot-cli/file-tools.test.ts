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
