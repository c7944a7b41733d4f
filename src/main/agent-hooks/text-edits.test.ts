import { describe, expect, it } from 'vitest'
import { parseJsonc, removeAt, setAt } from './jsonc-edit'
import { appendTable, parseToml, removeAddedTable } from './toml-edit'

const group = { hooks: [{ type: 'command', command: '/n /r/bin/retrace.js checkpoint end --hook claude-code' }] }

describe('JSONC edits that leave everything else byte for byte', () => {
  it.each([
    ['an empty object', '{}'],
    ['an empty object over lines', '{\n}\n'],
    ['CRLF line ends and tabs', '{\r\n\t"a": 1,\r\n\t"hooks": {\r\n\t\t"Stop": []\r\n\t}\r\n}\r\n'],
    ['comments and a trailing comma', '// mine\n{\n  "a": 1, // why\n  /* block */ "b": [1, 2],\n}\n'],
    ['a one-line hooks object', '{ "hooks": { "PreToolUse": [] }, "z": true }'],
    ['a trailing comment after the last member', '{\n  "a": { "b": 1 } // last\n}\n']
  ])('adding an entry and removing it gives %s back unchanged', (_name, text) => {
    const added = setAt(text, ['hooks', 'Stop', -1], group)
    expect(added.text).not.toBe(text)
    const value = parseJsonc(added.text, 'settings.json') as { hooks: { Stop: unknown[] } }
    expect(value.hooks.Stop.at(-1)).toEqual(group)
    let back = removeAt(added.text, ['hooks', 'Stop', (value.hooks.Stop.length - 1)])
    for (const path of [...added.created].reverse()) back = removeAt(back, path)
    expect(back).toBe(text)
  })

  it('adds after the existing members, indented like the file, and says what it created', () => {
    const text = '{\n    "model": "opus"\n}\n'
    const added = setAt(text, ['hooks', 'UserPromptSubmit', -1], { hooks: [] })
    expect(added.text).toBe('{\n    "model": "opus",\n    "hooks": {\n        "UserPromptSubmit": [\n            {\n                "hooks": []\n            }\n        ]\n    }\n}\n')
    expect(added.created).toEqual([['hooks'], ['hooks', 'UserPromptSubmit']])
  })

  it('keeps the comments around a removed member that sits between others', () => {
    const text = '{\n  "a": 1, // one\n  /* two */ "b": 2,\n  "c": 3\n}'
    expect(removeAt(text, ['b'])).toBe('{\n  "a": 1 // one\n  /* two */ ,\n  "c": 3\n}')
    expect(removeAt('{\n  "a": 1 /* x */,\n  "b": 2\n}', ['a'])).toBe('{\n   /* x */\n  "b": 2\n}')
  })

  it('refuses what it cannot do safely', () => {
    expect(() => parseJsonc('{ "a": ', 'x.json')).toThrow('x.json is not valid JSON (line 1)')
    expect(() => setAt('[1, 2]', ['hooks'], {})).toThrow('does not hold a JSON object')
    expect(() => setAt('{ "hooks": [] }', ['hooks', 'Stop', -1], group)).toThrow('Expected an object at hooks')
  })
})

describe("Codex's config.toml: one table appended, and taken out again", () => {
  const server = { command: '/opt/node/bin/node', args: ['/opt/retrace/bin/retrace.js', 'mcp'] }

  it.each([
    ['an empty file', ''],
    ['comments and other servers', '# my config\nmodel = "o3" # the best\n\n[mcp_servers.docs]\ncommand = "npx"\n'],
    ['blank lines at the end', 'model = "o3"\n\n\n'],
    ['CRLF line ends', 'model = "o3"\r\n[profiles.x]\r\nmodel = "o4"\r\n'],
    ['no final newline', 'model = "o3"\n[profiles.x]\nmodel = "o4"'],
    ['a blank line only', '\n']
  ])('%s comes back byte for byte', (_name, text) => {
    const added = appendTable(text, ['mcp_servers', 'retrace'], server, 'config.toml')
    expect((parseToml(added, 'config.toml') as { mcp_servers: Record<string, unknown> }).mcp_servers.retrace).toEqual(server)
    expect(added.startsWith(text)).toBe(true)
    expect(removeAddedTable(added, ['mcp_servers', 'retrace'], 'config.toml')).toBe(text)
  })

  it('refuses to extend an inline table, and leaves a table it did not add', () => {
    expect(() => appendTable('mcp_servers = { docs = { command = "npx" } }\n', ['mcp_servers', 'retrace'], server, 'config.toml')).toThrow('would not be valid TOML here')
    expect(removeAddedTable('[mcp_servers.retrace]\ncommand = "mine"\n', ['mcp_servers', 'retrace'], 'config.toml')).toBeUndefined()
    expect(() => parseToml('model = ', 'config.toml')).toThrow('config.toml is not valid TOML')
  })
})
