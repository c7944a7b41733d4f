import { describe, expect, it } from 'vitest'
import type { Message } from '../../../../shared/contract'
import { limitLines, relativePath, toolView, type ToolFileEdit } from './tool-view'

// Real agent files (see each fixture set's PROVENANCE.txt), read as text by Vite.
import CLAUDE from '../../../../../fixtures/claude-code/claude-code-log-turns/-Users-dain-workspace-claude-code-log-sample/937c6e6b-27e7-4edd-86f1-ad28f9731841.jsonl?raw'
import CLAUDE_WRITE from '../../../../../fixtures/claude-code/claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a4ca7529859c158c2.jsonl?raw'
import CODEX from '../../../../../fixtures/codex/codemie/sessions/2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl?raw'
import CODEX_SHELL from '../../../../../fixtures/codex/codemie/sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl?raw'

/** The tool calls of a real agent file, input as the importers store it (Codex function arguments parsed). */
function callsOf(jsonl: string, name: string): { input: Message['toolInput']; cwd: string | null }[] {
  const calls: { input: Message['toolInput']; cwd: string | null }[] = []
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue
    const record = JSON.parse(line) as { cwd?: string; message?: { content?: unknown }; payload?: { type?: string; name?: string; input?: string; arguments?: string } }
    const content = Array.isArray(record.message?.content) ? (record.message.content as { type?: string; name?: string; input?: Message['toolInput'] }[]) : []
    for (const block of content) if (block.type === 'tool_use' && block.name === name) calls.push({ input: block.input ?? null, cwd: record.cwd ?? null })
    const payload = record.payload
    if (payload?.name === name && payload.type === 'custom_tool_call') calls.push({ input: payload.input ?? null, cwd: null })
    if (payload?.name === name && payload.type === 'function_call') calls.push({ input: JSON.parse(payload.arguments ?? 'null') as Message['toolInput'], cwd: null })
  }
  return calls
}

const edits = (view: ReturnType<typeof toolView>): ToolFileEdit[] => {
  if (view?.kind !== 'edits') throw new Error(`not edits: ${JSON.stringify(view)}`)
  return view.files
}
const render = (file: ToolFileEdit) => file.hunks.map((hunk) => [hunk.heading ?? '', ...hunk.lines.map((line) => `${{ add: '+', del: '-', context: ' ' }[line.kind]}${line.text}`)].join('\n'))

describe('toolView: tool calls as diffs and terminal blocks, from real inputs', () => {
  it('shows a Claude Code Edit as a line diff of its old and new text, its path relative to the workspace', () => {
    const [edit] = callsOf(CLAUDE, 'Edit')
    const [file] = edits(toolView('Edit', edit?.input ?? null, edit?.cwd ?? null))
    expect(file).toMatchObject({ path: 'test/test_tui_expansion.py', op: 'edit', added: 1, removed: 0, movedTo: null })
    expect(render(file as ToolFileEdit)[0]).toBe(
      '\n import pytest\n import tempfile\n from pathlib import Path\n+from unittest.mock import Mock, patch\n from textual.widgets import Static, DataTable\n from claude_code_log.tui import SessionBrowser\n from claude_code_log.cache import SessionCacheData'
    )
  })

  it('shows each edit of a MultiEdit as its own block', () => {
    const [call] = callsOf(CLAUDE, 'MultiEdit')
    const input = call?.input as { edits: unknown[] }
    const [file] = edits(toolView('MultiEdit', call?.input ?? null, call?.cwd ?? null))
    expect(file?.path).toBe('test/test_tui_expansion.py')
    expect(file?.hunks).toHaveLength(input.edits.length)
    expect(file?.hunks[0]?.lines.filter((line) => line.kind === 'add').map((line) => line.text)).toEqual(['from unittest.mock import Mock, patch'])
  })

  it('shows a Write as the whole content written, every line added', () => {
    const [call] = callsOf(CLAUDE_WRITE, 'Write')
    const content = (call?.input as { content: string }).content
    const [file] = edits(toolView('Write', call?.input ?? null, null))
    expect(file?.op).toBe('write')
    expect(file?.added).toBe(content.replace(/\n$/, '').split('\n').length)
    expect(file?.removed).toBe(0)
    expect(file?.hunks[0]?.lines[0]).toEqual({ kind: 'add', text: '# Plan Mode in Claude Code' })
  })

  it('shows a Codex apply_patch (custom tool, raw patch) file by file with its hunks', () => {
    const [first] = callsOf(CODEX, 'apply_patch')
    const [file] = edits(toolView('apply_patch', first?.input ?? null, '/Users/Sample_User/repos/codemie-ai/codemie-code'))
    expect(file).toMatchObject({ path: 'src/agents/plugins/__tests__/codemie-code-reasoning.test.ts', op: 'edit', added: 14, removed: 0 })
    expect(file?.hunks.map((hunk) => hunk.lines[0])).toEqual([
      { kind: 'context', text: "  describe('Plugin Injection', () => {" },
      { kind: 'context', text: '  });' }
    ])
    expect(file?.hunks[1]?.lines.at(-1)).toEqual({ kind: 'context', text: "  describe('Cleanup — onSessionEnd', () => {" })
  })

  it('reads apply_patch in every form: added and deleted files, a move, a heredoc inside a shell call', () => {
    const patch = '*** Begin Patch\n*** Add File: docs/new.md\n+# New\n+text\n*** Delete File: old.txt\n*** Update File: a.ts\n*** Move to: b.ts\n@@ function f()\n-a\n+b\n*** End Patch\n'
    const files = edits(toolView('apply_patch', { input: patch }, null))
    expect(files.map((f) => [f.op, f.path, f.movedTo, f.added, f.removed])).toEqual([
      ['create', 'docs/new.md', null, 2, 0],
      ['delete', 'old.txt', null, 0, 0],
      ['edit', 'a.ts', 'b.ts', 1, 1]
    ])
    expect(files[2]?.hunks[0]?.heading).toBe('function f()')
    const shell = { command: ['bash', '-lc', `cd sub && apply_patch <<'EOF'\n${patch}EOF`], workdir: '/w' }
    expect(edits(toolView('shell', shell, '/w')).map((f) => f.path)).toEqual(['sub/docs/new.md', 'sub/old.txt', 'sub/a.ts'])
  })

  it('shows str_replace_based_edit_tool and str_replace_editor commands, and nothing for a view', () => {
    const base = { path: '/repo/src/a.py' }
    expect(render(edits(toolView('str_replace_based_edit_tool', { ...base, command: 'str_replace', old_str: 'x = 1', new_str: 'x = 2' }, '/repo'))[0] as ToolFileEdit)).toEqual(['\n-x = 1\n+x = 2'])
    expect(edits(toolView('str_replace_editor', { ...base, command: 'create', file_text: 'a\nb\n' }, '/repo'))[0]).toMatchObject({ path: 'src/a.py', op: 'write', added: 2 })
    expect(edits(toolView('str_replace_editor', { ...base, command: 'insert', insert_line: 4, new_str: 'y' }, null))[0]?.hunks[0]?.heading).toBe('after line 4')
    expect(toolView('str_replace_based_edit_tool', { ...base, command: 'view' }, null)).toBeNull()
  })

  it('marks a replace_all edit, so the block is not read as one place', () => {
    expect(edits(toolView('Edit', { file_path: 'a.ts', old_string: 'foo', new_string: 'bar', replace_all: true }, null))[0]?.hunks[0]?.heading).toBe('every occurrence')
  })

  it('shows Bash and Codex shell calls as a terminal command', () => {
    const [bash] = callsOf(CLAUDE, 'Bash')
    expect(toolView('Bash', bash?.input ?? null, null)).toEqual({ kind: 'terminal', command: 'uv run ty check', cwd: null })
    const [exec] = callsOf(CODEX, 'exec_command')
    expect(toolView('exec_command', exec?.input ?? null, null)).toMatchObject({ kind: 'terminal', command: "sed -n '1,180p' /Users/Sample_User/.codex/plugins/cache/openai-curated/superpowers/63976030/skills/using-superpowers/SKILL.md" })
    const [shell] = callsOf(CODEX_SHELL, 'shell')
    expect(toolView('shell', shell?.input ?? null, null)).toEqual({ kind: 'terminal', command: 'ls', cwd: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code' })
  })

  it('leaves other tools and unreadable input to the JSON view', () => {
    expect(toolView('Read', { file_path: '/a' }, null)).toBeNull()
    expect(toolView('apply_patch', 'not a patch', null)).toBeNull()
    expect(toolView('Edit', { old_string: 'a', new_string: 'b' }, null)).toBeNull()
    expect(toolView(null, null, null)).toBeNull()
  })

  it('makes paths relative only inside the workspace', () => {
    expect(relativePath('/w/src/a.ts', '/w')).toBe('src/a.ts')
    expect(relativePath('/w/src/a.ts', '/w/')).toBe('src/a.ts')
    expect(relativePath('/wx/a.ts', '/w')).toBe('/wx/a.ts')
    expect(relativePath('src/a.ts', '/w')).toBe('src/a.ts')
    expect(relativePath('/w/a.ts', null)).toBe('/w/a.ts')
  })
})

describe('limitLines', () => {
  it('folds the lines past the limit across files and counts them per file', () => {
    const file = (path: string, n: number): ToolFileEdit => ({ path, op: 'write', movedTo: null, hunks: [{ heading: null, lines: Array.from({ length: n }, (_, i) => ({ kind: 'add' as const, text: `${i}` })) }], added: n, removed: 0 })
    const limited = limitLines([file('a', 3), file('b', 4), file('c', 2)], 5)
    expect(limited.map((f) => [f.path, f.hunks[0]?.lines.length, f.hidden])).toEqual([
      ['a', 3, 0],
      ['b', 2, 2],
      ['c', 0, 2]
    ])
  })
})
