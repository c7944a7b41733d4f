import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageRecord, SessionMetaRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { createClaudeCodeParser } from './parser'

// A real Claude Code 2.0.42 session run from VS Code (fixtures/claude-code/claude-code-log): its
// prompts carry `<ide_opened_file>` and `<ide_selection>` blocks the extension added.
const FILE = join(FIXTURES, 'claude-code/claude-code-log/-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl')

function parsed() {
  const parser = createClaudeCodeParser()
  let offset = 0
  const records = []
  for (const line of readFileSync(FILE, 'utf8').split('\n')) {
    records.push(...parser.feed(line, offset))
    offset += Buffer.byteLength(line) + 1
  }
  return records
}

describe('what the IDE added to a Claude Code prompt', () => {
  it('is folded out of the prompt into a context message of the same turn, and out of the title', () => {
    const records = parsed()
    const messages = records.filter((r): r is MessageRecord => r.kind === 'message')
    const prompts = messages.filter((m) => m.startsTurn)
    expect(prompts.length).toBeGreaterThan(0)
    expect(prompts.filter((m) => /<ide_(opened_file|selection)>/.test(m.content))).toEqual([])
    const selection = messages.findIndex((m) => m.role === 'system' && m.content.startsWith('The user selected the lines 98 to 98 from /Users/dain/workspace/JSSoundRecorder/CLAUDE.md'))
    expect(selection).toBeGreaterThan(0)
    // Right after its prompt, hanging below it: the turn keeps it.
    expect(messages[selection - 1]).toMatchObject({ role: 'user', startsTurn: true, content: "Let's also Migrate to AudioWorklet" })
    expect(messages[selection]?.parentUid).toBe(messages[selection - 1]?.uid)
    const titles = records.filter((r): r is SessionMetaRecord => r.kind === 'session-meta' && r.title !== undefined).map((r) => r.title)
    expect(titles.some((title) => title?.includes('ide_'))).toBe(false)
  })
})
