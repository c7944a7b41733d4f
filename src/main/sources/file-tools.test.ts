import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SourceName } from './adapter'
import { SOURCE_ADAPTERS } from './registry'
import { FIXTURES } from './testing/claude-home'

/** Every file under `dir` whose name ends with one of `ends`. */
function filesUnder(dir: string, ends: string[]): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => ends.some((end) => name.endsWith(end)))
    .map((name) => join(dir, name))
}

/** The tool names the real histories of a source call, as their files write them. */
function toolNames(files: string[], pattern: RegExp): Set<string> {
  const names = new Set<string>()
  for (const file of files) for (const match of readFileSync(file, 'utf8').matchAll(pattern)) if (match[1]) names.add(match[1])
  return names
}

const REAL: Record<string, () => Set<string>> = {
  'claude-code': () =>
    toolNames([...filesUnder(join(FIXTURES, 'claude-code'), ['.jsonl']), ...filesUnder(join(FIXTURES, 'conformance'), ['.jsonl'])], /"type":"tool_use","id":"[^"]*","name":"([^"]+)"/g),
  codex: () => toolNames([...filesUnder(join(FIXTURES, 'codex'), ['.jsonl']), ...filesUnder(join(FIXTURES, 'conformance'), ['.jsonl'])], /"type":"(?:function_call|custom_tool_call)","name":"([^"]+)"/g),
  'gemini-cli': () => toolNames(filesUnder(join(FIXTURES, 'gemini-cli'), ['.json', '.jsonl']), /"name":\s*"([a-z_]+)"/g)
}

describe("each adapter's file tools", () => {
  it.each(Object.keys(REAL))('%s: classify every tool its real histories call (MCP tools and redacted names aside)', (name) => {
    const adapter = SOURCE_ADAPTERS.find((a) => a.name === (name as SourceName))
    const tools = adapter?.fileTools
    expect(tools).toBeDefined()
    const known = new Set([...(tools?.writes ?? []), ...(tools?.reads ?? []), ...(tools?.shell ?? [])])
    const called = [...(REAL[name]?.() ?? [])].filter((tool) => !tool.startsWith('mcp__') && !tool.startsWith('[REDACTED'))
    expect(called.length).toBeGreaterThan(3)
    expect(called.filter((tool) => !known.has(tool))).toEqual([])
  })

  it('Aider: its edits and commands are the lines it logs', () => {
    expect(SOURCE_ADAPTERS.find((a) => a.name === 'aider')?.fileTools).toEqual({ writes: ['Applied edit'], reads: [], shell: ['Running'] })
  })
})
