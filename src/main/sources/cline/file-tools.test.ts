import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { clineAdapter } from './adapter'
import { readTaskFolder } from './read-task'

describe('Cline\'s file tools', () => {
  it('end each write of the fixture tasks as a journaled change or a change reported not captured', () => {
    const tools = clineAdapter.fileTools
    expect(tools).toBeDefined()
    const writes = new Set(tools?.writes)
    expect([...writes].filter((name) => tools?.reads.includes(name) || tools?.shell.includes(name))).toEqual([])
    const tasks = [join('cline-auto-approve', 'saoudrizwan.claude-dev', 'tasks', '1769100000000'), join('cline-writer', 'saoudrizwan.claude-dev', 'tasks', '1764791864800')]
    for (const task of tasks) {
      const records = readTaskFolder(join(FIXTURES, 'cline', task)).sessions[0]?.records ?? []
      const calls = records.flatMap((record) => (record.kind === 'message' && record.role === 'tool_call' && writes.has(record.toolName ?? '') ? [record.toolCallId] : []))
      const accounted = new Set(records.flatMap((record) => (record.kind === 'file-edit' || record.kind === 'change-not-captured' ? [record.toolCallId] : [])))
      expect(calls.length).toBeGreaterThan(0)
      expect(calls.filter((id) => !accounted.has(id ?? null))).toEqual([])
    }
  })
})
