import { applyHunks } from '../apply-hunks'
import { describe, expect, it } from 'vitest'
import { editOf, searchReplaceHunks } from './file-edits'
import { clineRoots } from './roots'
import { taskRecords } from './task-records'
import { readUiMessages } from './ui-messages'
import { splitAssistantText, toolResultHeader } from './xml-tools'

describe('Cline XML tool calls', () => {
  it('splits prose, <thinking> and tool calls; file content keeps what looks like its own closing tag', () => {
    const text = '<thinking>Need the file.</thinking>\nWriting it now.\n<write_to_file>\n<path>a.md</path>\n<content>\nsee </content> here\n</content>\n<task_progress>- [x] a</task_progress>\n</write_to_file>'
    expect(splitAssistantText(text)).toEqual([
      { kind: 'reasoning', text: 'Need the file.' },
      { kind: 'text', text: 'Writing it now.' },
      { kind: 'tool', name: 'write_to_file', input: { path: 'a.md', content: 'see </content> here', task_progress: '- [x] a' }, raw: expect.stringMatching(/^<write_to_file>[\s\S]*<\/write_to_file>$/) as unknown }
    ])
    // A call cut off by an interrupted stream is still a call.
    expect(splitAssistantText('<execute_command>\n<command>ls</command>')).toMatchObject([{ kind: 'tool', name: 'execute_command', input: { command: 'ls' } }])
    expect(splitAssistantText('no <tools> here')).toEqual([{ kind: 'text', text: 'no <tools> here' }])
  })

  it('names the tool of a result header, Roo Code\'s sub-task forms included', () => {
    expect(toolResultHeader("[replace_in_file for 'src/a.ts'] Result:\nok")).toBe('replace_in_file')
    expect(toolResultHeader('[update_todo_list] Result:')).toBe('update_todo_list')
    expect(toolResultHeader("[new_task in 🪲 Debug mode: 'Fix [it]'] Result:")).toBe('new_task')
    expect(toolResultHeader('[new_task completed] Result: done')).toBe('new_task')
    expect(toolResultHeader('The user said [x] Result:')).toBeNull()
  })
})

describe('SEARCH/REPLACE blocks as hunks', () => {
  const before = 'a\nb\nc\nd\n'
  it('reads Cline\'s current markers, its older ones and Roo Code\'s apply_diff with :start_line:', () => {
    const cline = '------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEARCH\nd\n=======\nD\nE\n+++++++ REPLACE'
    expect(applyHunks(before, searchReplaceHunks(cline) ?? '')).toBe('a\nB\nc\nD\nE\n')
    const older = '<<<<<<< SEARCH\nc\n=======\n>>>>>>> REPLACE'
    expect(applyHunks(before, searchReplaceHunks(older) ?? '')).toBe('a\nb\nd\n')
    const roo = '<<<<<<< SEARCH\n:start_line:2\n-------\nb\nc\n=======\nbc\n>>>>>>> REPLACE'
    expect(applyHunks(before, searchReplaceHunks(roo) ?? '')).toBe('a\nbc\nd\n')
    expect(searchReplaceHunks('------- SEARCH\nb\n=======\nB')).toBeNull() // no closing marker: no edit
  })

  it('applies Cline 4 editor calls to a known file: replace once, insert before a line, create', () => {
    const known = new Map([['/w/a.txt', before]])
    const edit = (input: Record<string, unknown>, created = false) => editOf({ name: 'editor', id: 't', input: { path: '/w/a.txt', ...input } }, 3, created, known)
    expect(edit({ old_text: 'b\nc', new_text: 'x' })).toMatchObject({ before, after: 'a\nx\nd\n' })
    expect(edit({ insert_line: 2, new_text: 'y\n' })).toMatchObject({ before: 'a\nx\nd\n', after: 'a\ny\nx\nd\n' })
    expect(edit({ new_text: 'fresh' }, true)).toMatchObject({ before: null, after: 'fresh' })
    // Unknown content: the replacement goes as a hunk for the importer.
    known.clear()
    expect(edit({ old_text: 'p', new_text: 'q' })).toEqual({ kind: 'file-edit', offset: 3, toolCallId: 't', path: '/w/a.txt', patch: '@@\n-p\n+q' })
  })
})

describe('where Cline, Roo Code and Kilo Code keep their tasks', () => {
  it('follows each platform\'s VS Code user folder and Cline\'s own data folder variables', () => {
    const linux = clineRoots({ HOME: '/h' }, 'linux')
    expect(linux).toContain('/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev')
    expect(linux).toContain('/h/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline')
    expect(linux).toContain('/h/.vscode-server/data/User/globalStorage/kilocode.kilo-code')
    expect(linux.at(-1)).toBe('/h/.cline/data')
    expect(clineRoots({ HOME: '/h', XDG_CONFIG_HOME: '/x' }, 'linux')).toContain('/x/Code - Insiders/User/globalStorage/kilocode.kilo-code')
    expect(clineRoots({ HOME: '/Users/me' }, 'darwin')).toContain('/Users/me/Library/Application Support/VSCodium/User/globalStorage/saoudrizwan.claude-dev')
    expect(clineRoots({ HOME: '/h', APPDATA: '/appdata' }, 'win32')).toContain('/appdata/Code/User/globalStorage/saoudrizwan.claude-dev')
    expect(clineRoots({ HOME: '/h', CLINE_DIR: '/c' }, 'linux').at(-1)).toBe('/c/data')
    expect(clineRoots({ HOME: '/h', CLINE_DIR: '/c', CLINE_DATA_DIR: '/d' }, 'linux').at(-1)).toBe('/d')
    expect(clineRoots({ HOME: '/h', RETRACE_CLINE_DIRS: '/one:/two' }, 'linux')).toEqual(['/one', '/two'])
  })
})

describe('a task\'s records', () => {
  it('puts usage on the answer each request produced, by time when there is no history index', () => {
    const ui = readUiMessages([
      { ts: 10, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 1, tokensOut: 2, cost: 0.5 }) },
      { ts: 30, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 4, tokensOut: 8, cost: 0.25 }) },
      { ts: 50, type: 'say', say: 'api_req_started', text: 'not json' }
    ])
    expect(ui.problems).toEqual(['ui_messages.json[2]: api_req_started text is not JSON; its usage is not counted'])
    const history = [
      { role: 'user', ts: 5, content: [{ type: 'text', text: '<task>\nhi\n</task>' }] },
      { role: 'assistant', ts: 20, content: 'one' },
      { role: 'user', ts: 25, content: [{ type: 'text', text: '[ask_followup_question for \'q\'] Result:' }, { type: 'text', text: '<answer>\nyes\n</answer>' }] },
      { role: 'assistant', ts: 40, content: [{ type: 'text', text: 'two' }] }
    ]
    const { records } = taskRecords({ taskId: 'uuid-task', history, ui, metadataModel: 'm-1' })
    const messages = records.flatMap((record) => (record.kind === 'message' ? [[record.role, record.content, record.usage?.costUsd ?? null, record.startsTurn]] : []))
    expect(messages).toEqual([
      ['user', 'hi', null, true],
      ['assistant', 'one', 0.5, false],
      ['tool_result', "[ask_followup_question for 'q'] Result:\n\n<answer>\nyes\n</answer>", null, false],
      ['user', 'yes', null, true],
      ['assistant', 'two', 0.25, false]
    ])
    expect(records[0]).toMatchObject({ kind: 'session-meta', sessionId: 'uuid-task', title: 'hi', model: 'm-1', createdAt: 5 })
  })
})
