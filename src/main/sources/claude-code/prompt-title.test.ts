import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createClaudeCodeParser } from './parser'

const FILE = join(__dirname, '../../../../fixtures/claude-code/claude-code-log/-Users-dain-workspace-danieldemmel-me-next/5ed31c36-bca8-40fd-8d24-f1a1f0af7901.jsonl')

describe('a session named by its first prompt', () => {
  it('takes the prompt’s words, not the IDE note Claude Code put before them (a real VS Code session)', () => {
    const parser = createClaudeCodeParser()
    let offset = 0
    const titles: string[] = []
    for (const line of readFileSync(FILE, 'utf8').split('\n')) {
      if (line.trim() !== '') {
        for (const record of parser.feed(line, offset)) {
          if (record.kind === 'session-meta' && (record).titleOrigin === 'first-prompt') titles.push((record).title ?? '')
        }
      }
      offset += Buffer.byteLength(line) + 1
    }
    expect(titles).toEqual(['I keep getting mysterious build errors when MDX files have URLs wrapped in angl…'])
  })
})
