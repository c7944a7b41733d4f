import { describe, expect, it } from 'vitest'
import { classifyUserText, flattenBlocks, localCommandText, oneLine, promptWords, summarizeToolInput } from './content'

describe('classifyUserText', () => {
  it('reads a slash command as /name args (the fixtures: /mcp, /compact …, /handgemacht:create-beads …)', () => {
    expect(
      classifyUserText('<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args>and continue</command-args>')
    ).toEqual({ kind: 'command', text: '/compact and continue', args: 'and continue' })
    expect(classifyUserText('<command-message>handgemacht:create-beads</command-message>\n<command-args></command-args>')).toEqual({
      kind: 'command',
      text: '/handgemacht:create-beads',
      args: ''
    })
  })

  it('reads command output, caveats and interruption marks as system text without tags or colours', () => {
    expect(classifyUserText('<local-command-stdout>Kept model as \u001b[1mDefault\u001b[22m</local-command-stdout>')).toEqual({
      kind: 'system',
      text: 'Kept model as Default'
    })
    expect(classifyUserText('<local-command-caveat>Caveat: do not respond</local-command-caveat>').kind).toBe('system')
    expect(classifyUserText('[Request interrupted by user for tool use]')).toEqual({ kind: 'system', text: '[Request interrupted by user for tool use]' })
    expect(classifyUserText('<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>')).toEqual({ kind: 'system', text: 'ok' })
  })

  it('reads the user’s own ! command as a bash prompt', () => {
    expect(classifyUserText('<bash-input>rm -rf build</bash-input>')).toEqual({ kind: 'bash', text: '! rm -rf build', command: 'rm -rf build' })
  })

  it('keeps everything else as the prompt, untouched', () => {
    expect(classifyUserText('  fix the <div> in app.html\n')).toEqual({ kind: 'prompt', text: '  fix the <div> in app.html\n' })
    expect(classifyUserText('why does <command-name>/x</command-name> appear in my log?').kind).toBe('prompt')
  })

  it('renders local_command system lines', () => {
    expect(localCommandText('<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>')).toBe('/model')
    expect(localCommandText('<local-command-stdout>MCP dialog dismissed</local-command-stdout>')).toBe('MCP dialog dismissed')
  })
})

describe('flattenBlocks', () => {
  it('joins text, turns images and documents into attachments with a placeholder', () => {
    const flat = flattenBlocks([
      { type: 'text', text: 'look at this' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'document', title: 'spec.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } }
    ])
    expect(flat.text).toBe('look at this\n[image: image/png]\n[document: spec.pdf]\n[image: image/*]')
    expect(flat.attachments).toEqual([
      { mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { mediaType: 'application/pdf', data: 'JVBERi0=', name: 'spec.pdf' },
      { mediaType: 'image/*', data: null, name: 'https://example.com/a.jpg' }
    ])
    expect(flat.text).not.toContain('iVBOR')
  })

  it('keeps strings, names other blocks, and renders search results as title (url)', () => {
    expect(flattenBlocks('plain').text).toBe('plain')
    expect(flattenBlocks(null).text).toBe('')
    expect(flattenBlocks([{ type: 'tool_reference', tool_name: 'Grep' }]).text).toBe('[tool_reference: Grep]')
    expect(flattenBlocks([{ type: 'web_search_result', title: 'Docs', url: 'https://d.example' }]).text).toBe('Docs (https://d.example)')
    expect(flattenBlocks({ type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' }).text).toBe('[web_search_tool_result_error]')
  })
})

describe('summarizeToolInput', () => {
  it('names what the call is about in one line', () => {
    expect(summarizeToolInput('Bash', { command: 'mix test \\\n  --failed', description: 'Run tests' })).toBe('mix test \\ --failed')
    expect(summarizeToolInput('Edit', { file_path: '/p/a.ex', old_string: 'x', new_string: 'y' })).toBe('/p/a.ex')
    expect(summarizeToolInput('Grep', { pattern: 'defp', path: 'lib' })).toBe('defp in lib')
    expect(summarizeToolInput('Task', { description: 'Check versions', subagent_type: 'Plan', prompt: '…' })).toBe('Check versions (Plan)')
    expect(summarizeToolInput('TodoWrite', { todos: [{}, {}] })).toBe('2 todos')
    expect(summarizeToolInput('mcp__x__y', { a: 1 })).toBe('{"a":1}')
    expect(summarizeToolInput('Bash', { command: 'x'.repeat(500) }).length).toBe(200)
  })

  it('cuts long text with an ellipsis', () => {
    expect(oneLine('a  b\n c', 80)).toBe('a b c')
    expect(oneLine('abcdefghij', 5)).toBe('abcd…')
  })
})

describe('promptWords', () => {
  it('leaves out what Claude Code added around the prompt (fixtures/claude-code/claude-code-log, danieldemmel.me-next)', () => {
    const prompt =
      '<ide_opened_file>The user opened the file /Users/dain/workspace/danieldemmel.me-next/data/blog/post.mdx in the IDE. This may or may not be related to the current task.</ide_opened_file>\nI keep getting mysterious build errors'
    expect(promptWords(prompt)).toBe('I keep getting mysterious build errors')
    expect(promptWords('fix it\n<system-reminder>todo list empty</system-reminder>')).toBe('fix it')
    expect(promptWords('<ide_selection>x</ide_selection>')).toBe('')
    expect(promptWords('compare <div> and <span>')).toBe('compare <div> and <span>')
  })
})
