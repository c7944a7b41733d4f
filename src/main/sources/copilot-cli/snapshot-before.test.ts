import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FileEditRecord, SourceRecord } from '../records'
import { FIXTURES } from '../testing/claude-home'
import { createCopilotParser } from './parser'

const EVENTS = join(FIXTURES, 'copilot-cli', 'writer-1.0-rewind', 'session-state', 'e7a3c1d9-4b2f-4e6a-9c8d-1f0b3a5e7c92', 'events.jsonl')
const PROMPT_1 = '511d5cb1-0d30-4375-91c7-a6ccf90acdb7'
const PROMPT_2 = '48e90bcd-21d3-4cad-ae21-36e9a43e6328'

/** Parse the fixture with a lookup that records what it was asked; `cutAt` resumes from the saved state there. */
function parse(cutAt?: number): { edits: FileEditRecord[]; asked: string[] } {
  const asked: string[] = []
  const lookup = (prompt: string, path: string) => {
    asked.push(`${prompt} ${path}`)
    return `before ${path.slice(path.lastIndexOf('/') + 1)} at ${prompt === PROMPT_1 ? 1 : 2}\n`
  }
  const records: SourceRecord[] = []
  let parser = createCopilotParser(undefined, lookup)
  let offset = 0
  readFileSync(EVENTS, 'utf8').split('\n').forEach((line, index) => {
    if (index === cutAt) parser = createCopilotParser(JSON.parse(JSON.stringify(parser.state())), lookup)
    records.push(...parser.feed(line, offset))
    offset += Buffer.byteLength(line) + 1
  })
  return { edits: records.filter((r): r is FileEditRecord => r.kind === 'file-edit'), asked }
}

describe('edits given their content from the turn prompt’s rewind snapshot', () => {
  it('asks once per path and turn, keyed by the prompt’s event id, and keeps the patch', () => {
    const { edits, asked } = parse()
    expect(asked).toEqual([`${PROMPT_1} /home/dev/git-app/README.md`, `${PROMPT_1} /home/dev/git-app/NOTES.md`, `${PROMPT_2} /home/dev/git-app/NOTES.md`])
    expect(edits.map((e) => [e.path.replace('/home/dev/git-app/', ''), e.before, e.patch?.startsWith('@@')])).toEqual([
      ['README.md', 'before README.md at 1\n', true],
      ['NOTES.md', 'before NOTES.md at 1\n', true],
      ['NOTES.md', 'before NOTES.md at 2\n', true]
    ])
  })

  it('resumes mid-turn from the saved state, still knowing the turn’s prompt', () => {
    // Cut just before turn 1's NOTES.md result (line 7): it is still asked for under prompt 1.
    expect(parse(7).asked).toEqual(parse().asked)
  })

  it('without snapshots, edits carry no earlier content', () => {
    let offset = 0
    const parser = createCopilotParser()
    const edits = readFileSync(EVENTS, 'utf8')
      .split('\n')
      .flatMap((line) => {
        const records = parser.feed(line, offset)
        offset += Buffer.byteLength(line) + 1
        return records
      })
      .filter((r): r is FileEditRecord => r.kind === 'file-edit')
    expect(edits.map((e) => e.before)).toEqual([undefined, undefined, undefined])
  })
})
