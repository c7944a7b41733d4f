import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { readStoreDb } from './store-db'
import { workingDirs } from './working-dir'

const DATA = join(FIXTURES, 'y-agent/data')
const expected = JSON.parse(readFileSync(join(FIXTURES, 'y-agent/expected.json'), 'utf8')) as { data: Expected; malformedBase: Expected }

interface Expected {
  migrations: { versions: number[] }
  sessions: { total: number; byType: Record<string, number>; byState: Record<string, number>; list: { id: string; depth: number }[] }
  checkpoints: { total: number; invalidated: number; withJournalScope: number }
  journal: { scopes: number; entries: number; entriesByTier: Record<string, number>; entriesByOperation: Record<string, number>; entriesRolledBack: number; rollbacks: unknown[] }
  traces: { total: number; observations: number; observationsByType: Record<string, number>; failedObservations: number; totalInputTokens: number; totalOutputTokens: number; totalCacheReadTokens: number; totalCostUsd: number }
}

const countBy = <T>(items: T[], key: (item: T) => string) => items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {})

describe('reading a y-agent database (from a temporary copy)', () => {
  it('reads every table of data/ with the counts of expected.json', async () => {
    const db = await readStoreDb(join(DATA, 'y-agent.db'))
    const want = expected.data
    expect(db.problems).toEqual([])
    expect(db.migrations.map((migration) => migration.version)).toEqual(want.migrations.versions)
    expect(db.sessions).toHaveLength(want.sessions.total)
    expect(countBy(db.sessions, (session) => session.type)).toEqual(want.sessions.byType)
    expect(countBy(db.sessions, (session) => session.state)).toEqual(want.sessions.byState)
    expect(db.checkpoints).toHaveLength(want.checkpoints.total)
    expect(db.checkpoints.filter((checkpoint) => checkpoint.invalidated)).toHaveLength(want.checkpoints.invalidated)
    expect(db.checkpoints.filter((checkpoint) => checkpoint.scopeId)).toHaveLength(want.checkpoints.withJournalScope)
    expect(db.scopes).toHaveLength(want.journal.scopes)
    expect(db.entries).toHaveLength(want.journal.entries)
    expect(countBy(db.entries, (entry) => entry.strategy)).toEqual(want.journal.entriesByTier)
    expect(countBy(db.entries, (entry) => entry.operation)).toEqual(want.journal.entriesByOperation)
    expect(db.entries.filter((entry) => entry.rolledBack)).toHaveLength(want.journal.entriesRolledBack)
    expect(db.rollbacks).toHaveLength(want.journal.rollbacks.length)
    expect(db.rollbacks[0]?.conflicts).toMatchObject([{ filePath: '/home/dev/weatherly/Cargo.toml', expectedHash: expect.stringMatching(/^ac94bedb/) as string }])
    expect(db.traces).toHaveLength(want.traces.total)
    expect(db.observations).toHaveLength(want.traces.observations)
    expect(countBy(db.observations, (observation) => observation.type)).toEqual(want.traces.observationsByType)
    expect(db.observations.filter((observation) => observation.status === 'failed')).toHaveLength(want.traces.failedObservations)
    const sum = (pick: (observation: (typeof db.observations)[number]) => number) => db.observations.reduce((total, observation) => total + pick(observation), 0)
    expect(sum((observation) => observation.inputTokens)).toBe(want.traces.totalInputTokens)
    expect(sum((observation) => observation.outputTokens)).toBe(want.traces.totalOutputTokens)
    expect(sum((observation) => Number(observation.metadata.cache_read_tokens ?? 0))).toBe(want.traces.totalCacheReadTokens)
    expect(sum((observation) => observation.costUsd)).toBeCloseTo(want.traces.totalCostUsd, 6)
  })

  it('finds the project both session trees worked in from the paths their tools touched', async () => {
    const dirs = workingDirs(await readStoreDb(join(DATA, 'y-agent.db')))
    const main = expected.data.sessions.list.filter((session) => !session.id.startsWith('d8c5') && !session.id.startsWith('ee3b') && !session.id.startsWith('c62b'))
    for (const session of main) expect(dirs.get(session.id)).toBe('/home/dev/weatherly')
    // The canonical conversation's tree touched no file.
    expect(dirs.get('d8c5d575-3cd1-4682-96c8-de5547b1e222')).toBeNull()
  })

  it.each([
    ['schema-newer', /schema version 7 is newer than the newest this importer knows \(6\): migration 7 \(add session pins\)/],
    ['missing-table', /table chat_checkpoints is missing, although migration 4 is recorded as applied/]
  ])('%s: reports the problem and reads what it can as in the base', async (variant, problem) => {
    const db = await readStoreDb(join(FIXTURES, 'y-agent/malformed', variant, 'y-agent.db'))
    const base = expected.malformedBase
    expect(db.problems).toEqual([expect.stringMatching(problem) as string])
    expect(db.sessions).toHaveLength(base.sessions.total)
    expect(db.checkpoints).toHaveLength(variant === 'missing-table' ? 0 : base.checkpoints.total)
    expect(db.entries).toHaveLength(base.journal.entries)
    expect(db.traces).toHaveLength(base.traces.total)
  })

  it('wal-pending: the transaction only in y-agent.db-wal is read', async () => {
    const db = await readStoreDb(join(FIXTURES, 'y-agent/malformed/wal-pending/y-agent.db'))
    expect([db.sessions.length, db.checkpoints.length, db.traces.length]).toEqual([3, 5, 5])
  })

  // The real store of gorgiaxx/y-agent@5049ba5f (PROVENANCE.txt beside it) has no journal entry;
  // one is added to a copy, in its own table's layout, as that build would have written it.
  it('a journal table of another layout is reported, its rows not read as entries of this one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-y-agent-layout-'))
    try {
      cpSync(join(FIXTURES, 'y-agent/gorgiaxx-y-agent-5049ba5f/data'), dir, { recursive: true })
      const path = join(dir, 'y-agent.db')
      const db = new Database(path)
      db.prepare(
        "INSERT INTO file_journal_entries (id, scope_id, scope_type, file_path, storage_tier, original_hash, original_size, inline_content, file_existed) VALUES ('e1', 's1', 'task', '/home/dev/app/README.md', 'inline', 'abc', 3, CAST('old' AS BLOB), 1)"
      ).run()
      db.close()
      const store = await readStoreDb(path)
      expect(store.entries).toEqual([])
      expect(store.problems).toContainEqual(expect.stringMatching(/^table file_journal_entries has another layout \(it has no entry_id, operation\): no file change was read$/) as string)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
