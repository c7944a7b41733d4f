/**
 * The source files of the demo workspace: a small notes CLI the demo agents worked on. These
 * are the versions after every recorded session; `demoVersions` holds the earlier ones the
 * journal records, so each turn has a real before and after.
 */
export const demoFiles: Record<string, string> = {
  'CHANGELOG.md': `## notes 0.3.0

### New
- \`notes search <words>\`: find notes by their text, best matches first
- \`--limit N\` to cap the results

### Fixed
- \`relativeDay\` no longer depends on the time of day (flaky test)
`,
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

const finalFile = (path: string): string => demoFiles[path] ?? ''

/** Earlier versions of demo files, as the agents found or left them in earlier turns. */
export const demoVersions = {
  /** src/search.ts as first written: case-sensitive. */
  searchV1: finalFile('src/search.ts')
    .replace('query.toLowerCase().split(/\\s+/).filter(Boolean)', 'query.split(/\\s+/)')
    .replace('score(note.body.toLowerCase(), words)', 'score(note.body, words)'),
  datesOriginal: `/** "3 days ago". */
export function relativeDay(iso: string): string {
  const days = Math.round((Date.now() - new Date(iso).getTime()) / 86_400_000)
  if (days === 0) return 'today'
  if (days === 1) return 'yesterday'
  return \`\${days} days ago\`
}
`,
  /** After the first fix: an explicit clock, still rounding. */
  datesWithClock: `/** "3 days ago", computed against an explicit clock so tests do not depend on today. */
export function relativeDay(iso: string, now: Date): string {
  const days = Math.round((now.getTime() - new Date(iso).getTime()) / 86_400_000)
  if (days === 0) return 'today'
  if (days === 1) return 'yesterday'
  return \`\${days} days ago\`
}
`,
  testOriginal: `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { relativeDay } from '../src/dates.js'

const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString()

test('three days', () => assert.equal(relativeDay(threeDaysAgo), '3 days ago'))
`
}
