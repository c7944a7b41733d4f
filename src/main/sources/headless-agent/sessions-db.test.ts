import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { readSessionsDb } from './sessions-db'
import { HEADLESS_FIXTURE, HEADLESS_HOME, headlessExpected, listing } from './testing/headless-fixture'

const expected = headlessExpected()

const countBy = <T>(items: T[], key: (item: T) => string) => {
  const counts: Record<string, number> = {}
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1
  return counts
}

describe('reading the headless agent sessions.db', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
    dir = ''
  })

  it('home: every session with its events in id order, as expected.json counts them', async () => {
    const db = await readSessionsDb(join(HEADLESS_HOME, 'sessions.db'))
    expect(db.problems).toEqual([])
    expect(db.sessions.map((s) => s.row.id).sort()).toEqual(expected.sessions.map((s) => s.id).sort())
    for (const want of expected.sessions) {
      const session = db.sessions.find((s) => s.row.id === want.id)
      expect(session?.row).toMatchObject({ workflowName: want.workflow_name, status: want.status })
      expect(session?.events).toHaveLength(want.events)
      expect(countBy(session?.events ?? [], (e) => e.type)).toEqual(want.events_by_type)
      const ids = session?.events.map((e) => e.id) ?? []
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
    }
    const all = db.sessions.flatMap((s) => s.events)
    expect(all).toHaveLength(expected.totals.events)
    expect(countBy(all, (e) => e.type)).toEqual(expected.totals.events_by_type)
  })

  it('malformed variants: the rows each holds (orphan events are counted, not attached)', async () => {
    for (const variant of expected.malformed) {
      const db = await readSessionsDb(join(HEADLESS_FIXTURE, 'malformed', variant.name, 'sessions.db'))
      const attached = db.sessions.reduce((sum, s) => sum + s.events.length, 0)
      const orphaned = db.problems.map((p) => /^(\d+) events \(ids/.exec(p)?.[1]).reduce((sum, n) => sum + Number(n ?? 0), 0)
      expect([db.sessions.length, attached + orphaned], variant.name).toEqual([variant.sessions, variant.events])
    }
  })

  it('reads what a running agent has only in its -wal file, and writes nothing beside it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-headless-db-'))
    const path = join(dir, 'sessions.db')
    copyFileSync(join(HEADLESS_HOME, 'sessions.db'), path)
    const writer = new Database(path)
    writer.pragma('journal_mode = WAL')
    writer.pragma('wal_autocheckpoint = 0')
    writer.prepare("INSERT INTO sessions (id, workflow_name, inputs, state, outputs, status, result, error, created_at, updated_at) VALUES ('wal-only', 'late', '{}', '{}', '{}', 'running', '', '', '2026-03-16 12:00:00-04:00', '2026-03-16 12:00:00-04:00')").run()
    const before = listing(dir)
    const db = await readSessionsDb(path)
    expect(db.sessions.map((s) => s.row.id)).toContain('wal-only')
    expect(listing(dir)).toEqual(before)
    writer.close()
  })

  it('an unknown schema is reported, not thrown', async () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-headless-db-'))
    const path = join(dir, 'sessions.db')
    const other = new Database(path)
    other.exec('CREATE TABLE sessions (name TEXT)')
    other.close()
    expect(await readSessionsDb(path)).toEqual({ sessions: [], problems: ['the sessions table lacks id: an unknown schema'] })
    expect((await readSessionsDb(join(dir, 'missing.db'))).problems).toEqual([expect.stringMatching(/^sessions\.db cannot be read: .*no such file/)])
  })
})
