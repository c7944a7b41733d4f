import { cpSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { databaseOf } from '../../store/raw-database'
import { loadMigrations } from '../../store/migrations'
import { schemaBefore } from '../../store/testing/schema-before'
import { FIXTURES } from '../testing/claude-home'
import { importTestbed } from '../testing/import-testbed'

// Fixtures built from Copilot CLI's published event schema and writer (see PROVENANCE.txt).
const FIXTURE = join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state')
const FIX = loadMigrations().find((m) => m.name === 'copilot_cached_input')?.version ?? 25

const { tempDir, runtime } = importTestbed('retrace-copilot-cached-input-')

type Db = Database.Database
const usageOf = (db: Db) => ({
  sessions: db.prepare("SELECT uid, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens FROM sessions WHERE source = 'copilot-cli' ORDER BY uid").all(),
  messages: db.prepare("SELECT m.id, m.input_tokens, m.cache_read_tokens, m.cache_write_tokens FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.source = 'copilot-cli' AND m.input_tokens IS NOT NULL ORDER BY m.id").all()
})

/**
 * What importers before R64 stored: the shutdown's input taken as fresh, its cache added beside
 * it, so every input figure holds its cache tokens twice over; and an import state without
 * `pendingWrites`, which they did not write.
 */
function asBeforeR64(db: Db, { oldImportState }: { oldImportState: boolean }): void {
  db.exec("UPDATE messages SET input_tokens = input_tokens + coalesce(cache_read_tokens, 0) + coalesce(cache_write_tokens, 0) WHERE session_id IN (SELECT id FROM sessions WHERE source = 'copilot-cli') AND input_tokens IS NOT NULL")
  db.exec("UPDATE sessions SET input_tokens = input_tokens + cache_read_tokens + cache_write_tokens, priced_cost_usd = NULL, priced_with = NULL WHERE source = 'copilot-cli'")
  if (oldImportState) {
    const rows = db.prepare("SELECT id, import_state FROM import_files WHERE source = 'copilot-cli'").all() as { id: number; import_state: string }[]
    for (const row of rows) {
      const { pendingWrites: _dropped, ...state } = JSON.parse(row.import_state) as Record<string, unknown>
      db.prepare('UPDATE import_files SET import_state = ? WHERE id = ?').run(JSON.stringify(state), row.id)
    }
  }
  schemaBefore(db, FIX)
}

async function importedStore() {
  const home = join(tempDir(), 'copilot-home')
  cpSync(FIXTURE, join(home, 'session-state'), { recursive: true })
  const dataDir = join(tempDir(), 'data')
  const env = { COPILOT_HOME: home }
  const first = runtime({}, { dataDir, env })
  await first.imports.importAll()
  const fresh = usageOf(databaseOf(first.store))
  first.close()
  await first.closed
  return { dataDir, env, fresh }
}

describe('migration 025: Copilot CLI input tokens counted once (R64)', () => {
  it('takes the cache tokens out of the input of sessions read before R64, and prices them again', async () => {
    const { dataDir, env, fresh } = await importedStore()
    // The writer fixture's main session: 84210 + 9070 input as Copilot counts it, 70872 of them cached.
    expect(fresh.sessions).toContainEqual(expect.objectContaining({ input_tokens: 13338 + 9070, cache_read_tokens: 61002, cache_write_tokens: 9870 }))

    const raw = new Database(join(dataDir, 'retrace.db'))
    asBeforeR64(raw, { oldImportState: true })
    const inflated = usageOf(raw)
    raw.close()
    expect(inflated.sessions).toContainEqual(expect.objectContaining({ input_tokens: 84210 + 9070 }))

    const after = runtime({}, { dataDir, env })
    const db = databaseOf(after.store)
    expect(usageOf(db)).toEqual(fresh)
    // Priced again at start from the corrected tokens.
    expect(db.prepare("SELECT count(*) FROM sessions WHERE source = 'copilot-cli' AND priced_with IS NULL").pluck().get()).toBe(0)
  })

  it('leaves alone the sessions of files an importer since R64 read', async () => {
    const { dataDir, env } = await importedStore()
    const raw = new Database(join(dataDir, 'retrace.db'))
    asBeforeR64(raw, { oldImportState: false })
    const figures = usageOf(raw).messages
    raw.close()

    const after = runtime({}, { dataDir, env })
    expect(usageOf(databaseOf(after.store)).messages).toEqual(figures)
  })
})
