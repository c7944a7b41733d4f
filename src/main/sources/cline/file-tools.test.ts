import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { clineAdapter } from './adapter'
import { readTaskFolder } from './read-task'
import { taskRecords } from './task-records'
import { readUiMessages } from './ui-messages'

describe('Cline\'s file tools', () => {
  it('end each write of the fixture tasks (Cline\'s and Roo Code\'s) as a journaled change or a change reported not captured', () => {
    const tools = clineAdapter.fileTools
    expect(tools).toBeDefined()
    const writes = new Set(tools?.writes)
    expect([...writes].filter((name) => tools?.reads.includes(name) || tools?.shell.includes(name))).toEqual([])
    const roo = join('roo-writer', 'rooveterinaryinc.roo-cline', 'tasks')
    const tasks = [
      join('cline-auto-approve', 'saoudrizwan.claude-dev', 'tasks', '1769100000000'),
      join('cline-writer', 'saoudrizwan.claude-dev', 'tasks', '1764791864800'),
      join(roo, '019c8a10-5e2b-7a31-9f00-3c1d2e4f5a61'),
      join(roo, '019c8a12-77d0-7b42-8e11-4d2e3f506b72')
    ]
    for (const task of tasks) {
      const records = readTaskFolder(join(FIXTURES, 'cline', task)).sessions[0]?.records ?? []
      const calls = records.flatMap((record) => (record.kind === 'message' && record.role === 'tool_call' && writes.has(record.toolName ?? '') ? [record.toolCallId] : []))
      const accounted = new Set(records.flatMap((record) => (record.kind === 'file-edit' || record.kind === 'change-not-captured' ? [record.toolCallId] : [])))
      expect(calls.length).toBeGreaterThan(0)
      expect(calls.filter((id) => !accounted.has(id ?? null))).toEqual([])
    }
  })
})

describe('a Cline or Roo Code write the importer cannot journal', () => {
  it('is reported as not captured, with its path: Roo\'s insert_content, a diff without a complete block', () => {
    const history = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nadd a header\n</task>' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_ins', name: 'insert_content', input: { path: 'a.md', line: 1, content: '# A' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_ins', content: [{ type: 'text', text: 'Content inserted into a.md' }] }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_rep', name: 'replace_in_file', input: { path: 'b.md', diff: '------- SEARCH\nx\n=======\ny' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_rep', content: [{ type: 'text', text: 'done' }] }] }
    ]
    const { records } = taskRecords({ taskId: 'task-a', history, ui: readUiMessages([]), metadataModel: undefined })
    expect(records.filter((record) => record.kind === 'change-not-captured').map((record) => record.kind === 'change-not-captured' && [record.toolCallId, record.tool, record.path])).toEqual([
      ['toolu_ins', 'insert_content', 'a.md'],
      ['toolu_rep', 'replace_in_file', 'b.md']
    ])
  })
})
