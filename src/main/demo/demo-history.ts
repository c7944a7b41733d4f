import type { Recorder } from '../transcripts/recorder'
import { demoFiles, demoVersions } from './demo-files'
import { DemoClock, play } from './demo-script'

const HOUR = 3600_000
const DAY = 24 * HOUR

/**
 * The demo's native history: a search feature built with a sub-agent's help, a branch that
 * tried another approach, a long bug hunt that was compacted, its successor after /clear,
 * and a throwaway question. Times are relative to `now` so the demo always looks recent.
 */
export function recordDemoHistory(recorder: Recorder, workspaceId: number, now: number): void {
  recorder.batch(() => {
    const search = recordSearchFeature(recorder, workspaceId, new DemoClock(now - 3 * DAY))
    recordFts5Branch(recorder, search, new DemoClock(now - 3 * DAY + 3 * HOUR))
    const bugHunt = recordFlakyTest(recorder, workspaceId, new DemoClock(now - 2 * DAY))
    recordReleaseNotes(recorder, bugHunt, new DemoClock(now - DAY))
    recordQuickQuestion(recorder, workspaceId, new DemoClock(now - 5 * HOUR))
  })
}

function recordSearchFeature(recorder: Recorder, workspaceId: number, clock: DemoClock): string {
  const main = recorder.startSession({ workspaceId, title: 'Add full-text search to the notes CLI', model: 'claude-sonnet-4-5', createdAt: clock.tick(0) })
  play(main, [
    { user: 'Add a `search` command to the notes CLI that finds notes by the words in their body.' },
    { think: 'I do not know yet how notes are persisted. Exploring the storage is independent of designing the command, so a sub-agent can read the code while I plan the CLI flags.' },
    { say: "I'll have a sub-agent map out how notes are stored, then add the command.", tokens: [3100, 140] },
    { tool: 'Task', input: { description: 'Find where notes are stored', prompt: 'Find how notes are loaded and saved. Report the file format and the functions involved.' }, result: 'Notes are JSON lines in ~/.notes/notes.jsonl. `loadNotes(file)` in src/notes.ts reads them; `addNote` appends one line. There is no index.' }
  ], clock)
  const explorer = main.startSubAgent({ title: 'Explore: where are notes stored?', createdAt: clock.tick(1) })
  play(explorer, [
    { user: 'Find how notes are loaded and saved. Report the file format and the functions involved.' },
    { tool: 'Grep', input: { pattern: 'readFileSync|appendFileSync', path: 'src' }, result: 'src/notes.ts:1: import { readFileSync, appendFileSync, existsSync } from \'node:fs\'' },
    { tool: 'Read', input: { file_path: 'src/notes.ts' }, result: demoFiles['src/notes.ts'] ?? '' },
    { say: 'Notes are JSON lines in `~/.notes/notes.jsonl`.\n\n- `loadNotes(file)` reads and parses every line\n- `addNote(file, body)` appends one line\n\nThere is no index, so search has to scan.', tokens: [5200, 210] }
  ], clock)
  explorer.close()
  play(main, [
    { tool: 'Write', input: { file_path: 'src/search.ts', content: demoVersions.searchV1 }, result: 'File created successfully at: src/search.ts', file: { path: 'src/search.ts', before: null, after: demoVersions.searchV1 } },
    { say: 'Added `src/search.ts`:\n\n```ts\nexport function searchNotes(notes: Note[], query: string, limit = 20): SearchHit[]\n```\n\nIt keeps notes that contain **every** word of the query and ranks them by how often the words occur.', tokens: [6800, 420] },
    { user: 'Make it case-insensitive, and add a `--limit` flag.' },
    { tool: 'Edit', input: { file_path: 'src/search.ts', old_string: 'const words = query.split(/\\s+/)', new_string: 'const words = query.toLowerCase().split(/\\s+/).filter(Boolean)' }, result: 'The file src/search.ts has been updated.', file: { path: 'src/search.ts', before: demoVersions.searchV1, after: demoFiles['src/search.ts'] ?? '' } },
    { tool: 'Bash', input: { command: 'npm test', description: 'Run the test suite' }, result: '> notes@0.3.0 test\n> node --test\n\n✔ same day is today (0.8ms)\n✔ yesterday (0.2ms)\n✔ three days (0.2ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0' },
    { say: 'Search is now case-insensitive and `--limit` caps the results (default 20). All 3 tests pass.\n\n| flag | default | meaning |\n|---|---|---|\n| `--limit N` | 20 | at most N results |', tokens: [8900, 260] }
  ], clock)
  main.close()
  return main.id
}

function recordFts5Branch(recorder: Recorder, parentId: string, clock: DemoClock): void {
  const branch = recorder.fork(parentId, { atTurn: 2, title: 'Try SQLite FTS5 instead of a scan', createdAt: clock.tick(0) })
  play(branch, [
    { user: 'Instead of scanning, could we index notes with SQLite FTS5? Try it.' },
    { think: 'FTS5 gives ranking (bm25) for free, but it adds a native dependency to a tiny CLI. Worth measuring before deciding.' },
    { tool: 'Bash', input: { command: 'npm install better-sqlite3', description: 'Add SQLite' }, result: 'added 36 packages in 4s' },
    { say: 'FTS5 works, but it adds a native module and 36 packages for a notebook that rarely exceeds a few thousand notes. I would keep the scan; this branch is here if we ever need it.', tokens: [9400, 310] }
  ], clock)
  branch.close()
}

function recordFlakyTest(recorder: Recorder, workspaceId: number, clock: DemoClock): string {
  const session = recorder.startSession({ workspaceId, title: 'Fix the flaky date test', model: 'claude-sonnet-4-5', createdAt: clock.tick(0) })
  play(session, [
    { user: '`three days` in test/dates.test.ts fails about once a day in CI. Find out why.' },
    { tool: 'Read', input: { file_path: 'src/dates.ts' }, result: 'export function relativeDay(iso: string): string {\n  const days = Math.round((Date.now() - new Date(iso).getTime()) / 86_400_000)\n  ...' },
    { think: '`Math.round` over a raw millisecond difference depends on the time of day the test runs, and `Date.now()` makes the result depend on the clock. Both explain a once-a-day failure.' },
    { say: 'Two causes:\n\n1. `relativeDay` reads `Date.now()`, so the answer depends on when CI runs.\n2. `Math.round` on a fractional day count flips between 2 and 3 around noon.', tokens: [4100, 230] },
    { user: 'Fix both, and make the tests independent of the clock.' },
    { tool: 'Edit', input: { file_path: 'src/dates.ts', old_string: 'export function relativeDay(iso: string): string {', new_string: 'export function relativeDay(iso: string, now: Date): string {' }, result: 'The file src/dates.ts has been updated.', file: { path: 'src/dates.ts', before: demoVersions.datesOriginal, after: demoVersions.datesWithClock } },
    { tool: 'Write', input: { file_path: 'test/dates.test.ts', content: demoFiles['test/dates.test.ts'] ?? '' }, result: 'The file test/dates.test.ts has been updated.', file: { path: 'test/dates.test.ts', before: demoVersions.testOriginal, after: demoFiles['test/dates.test.ts'] ?? '' } },
    { tool: 'Bash', input: { command: 'npm test' }, result: '✖ three days\n  AssertionError: expected "2 days ago" to equal "3 days ago"', error: true },
    { think: 'Still off by one: the subtraction must happen between UTC day starts, not timestamps.' },
    { tool: 'Edit', input: { file_path: 'src/dates.ts', old_string: 'Math.round((now.getTime() - then.getTime()) / 86_400_000)', new_string: 'Math.floor((startOfDay(now).getTime() - startOfDay(then).getTime()) / 86_400_000)' }, result: 'The file src/dates.ts has been updated.', file: { path: 'src/dates.ts', before: demoVersions.datesWithClock, after: demoFiles['src/dates.ts'] ?? '' } },
    { tool: 'Bash', input: { command: 'npm test' }, result: 'ℹ tests 3\nℹ pass 3\nℹ fail 0' },
    { say: 'Fixed: `relativeDay` takes an explicit `now`, and counts whole UTC days. The tests pin `now` to 2026-03-10.', tokens: [7200, 190] },
    { compact: 'Summary of the conversation so far: the user asked why `three days` in test/dates.test.ts was flaky. Causes found: `relativeDay` read `Date.now()` and rounded a fractional day count. Fix applied in src/dates.ts: an explicit `now: Date` parameter and whole-UTC-day arithmetic via `startOfDay`. All 3 tests pass.' },
    { user: 'Run the tests 50 times in a row to be sure.' },
    { tool: 'Bash', input: { command: 'for i in $(seq 50); do npm test --silent || exit 1; done && echo "50/50 green"' }, result: '50/50 green' },
    { say: '50 runs in a row, all green. The flake is gone.', tokens: [2900, 40] }
  ], clock)
  session.close()
  return session.id
}

function recordReleaseNotes(recorder: Recorder, previousId: string, clock: DemoClock): void {
  const next = recorder.startSuccessor(previousId, { title: 'Write release notes for 0.3.0', createdAt: clock.tick(0) })
  play(next, [
    { system: 'Conversation cleared with /clear. Previous session: "Fix the flaky date test".' },
    { user: 'Write the release notes for 0.3.0 from the git log.' },
    { tool: 'Bash', input: { command: 'git log --oneline v0.2.0..HEAD' }, result: 'a41c2e9 Fix flaky relativeDay test\n7bd0f13 Add --limit to search\n3e9a8c1 Add search command' },
    { tool: 'Write', input: { file_path: 'CHANGELOG.md', content: demoFiles['CHANGELOG.md'] ?? '' }, result: 'File created successfully at: CHANGELOG.md', file: { path: 'CHANGELOG.md', before: null, after: demoFiles['CHANGELOG.md'] ?? '' } },
    { say: 'Wrote CHANGELOG.md:\n\n## notes 0.3.0\n\n### New\n- `notes search <words>`: find notes by their text, best matches first\n- `--limit N` to cap the results\n\n### Fixed\n- `relativeDay` no longer depends on the time of day (flaky test)', tokens: [3300, 180] }
  ], clock)
  next.close()
}

function recordQuickQuestion(recorder: Recorder, workspaceId: number, clock: DemoClock): void {
  const session = recorder.startSession({ workspaceId, title: 'What does --json print?', kind: 'ephemeral', createdAt: clock.tick(0) })
  play(session, [
    { user: 'Quick one: does `notes list` have a --json flag?' },
    { say: 'Not yet. `notes list` prints one note per line as `#id  body`. Adding `--json` would be a two-line change in the CLI entry point.', tokens: [1800, 60] }
  ], clock)
  session.close()
}
