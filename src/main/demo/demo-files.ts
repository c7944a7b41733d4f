/** The source files of the demo workspace: a small notes CLI the demo agents worked on. */
export const demoFiles: Record<string, string> = {
  'README.md': `# notes

A tiny command-line notebook. Notes are stored as JSON lines in \`~/.notes/notes.jsonl\`.

    notes add "Buy oat milk"
    notes list
    notes search milk --limit 5
`,
  'package.json': `{
  "name": "notes",
  "version": "0.3.0",
  "type": "module",
  "bin": { "notes": "dist/cli.js" },
  "scripts": { "build": "tsc", "test": "node --test" }
}
`,
  'src/notes.ts': `import { readFileSync, appendFileSync, existsSync } from 'node:fs'

export interface Note {
  id: number
  body: string
  createdAt: string
}

export function loadNotes(file: string): Note[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Note)
}

export function addNote(file: string, body: string, now = new Date()): Note {
  const notes = loadNotes(file)
  const note = { id: notes.length + 1, body, createdAt: now.toISOString() }
  appendFileSync(file, JSON.stringify(note) + '\\n')
  return note
}
`,
  'src/search.ts': `import type { Note } from './notes.js'

export interface SearchHit {
  note: Note
  score: number
}

/** Notes whose body contains every word of the query, most matches first. */
export function searchNotes(notes: Note[], query: string, limit = 20): SearchHit[] {
  const words = query.toLowerCase().split(/\\s+/).filter(Boolean)
  return notes
    .map((note) => ({ note, score: score(note.body.toLowerCase(), words) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || b.note.id - a.note.id)
    .slice(0, limit)
}

function score(body: string, words: string[]): number {
  let total = 0
  for (const word of words) {
    const count = body.split(word).length - 1
    if (count === 0) return 0
    total += count
  }
  return total
}
`,
  'src/dates.ts': `/** "3 days ago", computed against an explicit clock so tests do not depend on today. */
export function relativeDay(iso: string, now: Date): string {
  const then = new Date(iso)
  const days = Math.floor((startOfDay(now).getTime() - startOfDay(then).getTime()) / 86_400_000)
  if (days === 0) return 'today'
  if (days === 1) return 'yesterday'
  return \`\${days} days ago\`
}

function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
}
`,
  'test/dates.test.ts': `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { relativeDay } from '../src/dates.js'

const now = new Date('2026-03-10T08:00:00Z')

test('same day is today', () => assert.equal(relativeDay('2026-03-10T23:59:00Z', now), 'today'))
test('yesterday', () => assert.equal(relativeDay('2026-03-09T00:30:00Z', now), 'yesterday'))
test('three days', () => assert.equal(relativeDay('2026-03-07T12:00:00Z', now), '3 days ago'))
`
}
