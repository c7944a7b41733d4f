import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { databaseOf } from '../store/raw-database'
import { loadMigrations } from '../store/migrations'
import { schemaBefore } from '../store/testing/schema-before'
import type { HistoryFile, SourceAdapter } from './adapter'
import type { ImportReport } from './import-deps'
import { adaptersFor } from './registry'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const SUB = '/home/USER/projects/spotter-worktrees/spotter-4te'
const PARENT = '/home/USER/projects/spotter-worktrees'
const FOLD = loadMigrations().find((m) => m.name === 'one_session_one_row')?.version ?? 24

const { tempDir, runtime } = importTestbed('retrace-one-row-fold-')

/** What the importer's private per-workspace import is: before R59, opening a folder handed it every file its discovery found. */
type ImportFilesInto = (workspace: { id: number; path: string }, files: { adapter: SourceAdapter; file: HistoryFile }[], options: object) => Promise<ImportReport>

/**
 * A store as Retrace made it before R59: the real spotter session (1 main session, 2 sub-agents)
 * imported into its worktree folder's workspace, then copied into the parent folder's when that
 * was opened (today's importer's own code path, fed what the parent's discovery finds).
 */
async function storeWithCopies(rt: Runtime): Promise<void> {
  const sub = rt.store.workspaces.open(SUB, 'spotter-4te')
  await rt.imports.importWorkspace(sub)
  const parent = rt.store.workspaces.open(PARENT, 'spotter-worktrees')
  const [claude] = adaptersFor(['claude-code'])
  if (!claude) throw new Error('no claude-code adapter')
  const found = await claude.discover(PARENT, claude.roots(rt.imports.environment))
  const importFiles = (rt.imports as unknown as { importFiles: ImportFilesInto }).importFiles.bind(rt.imports)
  await importFiles({ id: parent, path: PARENT }, found.map((file) => ({ adapter: claude, file })), {})
}

interface Counts {
  sessions: number
  copies: number
  messages: number
  checkpoints: number
  journalEntries: number
  blobs: number
  rewinds: number
}

function counts(db: Database.Database): Counts {
  const one = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0
  return {
    sessions: one('SELECT count(*) FROM sessions'),
    copies: one("SELECT count(*) FROM sessions WHERE source_session_id LIKE 'ae4a77f8-aedd-4bc1-888f-c94edc91af04%' AND workspace_id = (SELECT id FROM workspaces WHERE path = '/home/USER/projects/spotter-worktrees')"),
    messages: one('SELECT count(*) FROM messages'),
    checkpoints: one('SELECT count(*) FROM checkpoints'),
    journalEntries: one('SELECT count(*) FROM journal_entries'),
    blobs: one('SELECT count(*) FROM blobs'),
    rewinds: one('SELECT count(*) FROM rewinds')
  }
}

describe('migration 024 folds the copies made before R59 (R60)', () => {
  it('keeps one session per history, under the folder it ran in, and every journal entry and blob', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SUB)
    const dataDir = join(tempDir(), 'data')
    const before = runtime({ claude: home.root }, { dataDir })
    await storeWithCopies(before)
    const db = databaseOf(before.store)
    const made = counts(db)
    const subCopy = (db.prepare("SELECT count(*) FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.workspace_id = (SELECT id FROM workspaces WHERE path = ?)").pluck().get(SUB) as number)
    const subCheckpoints = db.prepare('SELECT count(*) FROM checkpoints c JOIN sessions s ON s.id = c.session_id WHERE s.workspace_id = (SELECT id FROM workspaces WHERE path = ?)').pluck().get(SUB) as number
    // A rewind made from the parent's copy: after the fold, the session that stays knows it.
    const parentCopy = db.prepare("SELECT id, workspace_id FROM sessions WHERE kind = 'main' AND workspace_id = (SELECT id FROM workspaces WHERE path = ?)").get(PARENT) as { id: number; workspace_id: number }
    db.prepare("INSERT INTO rewinds (id, workspace_id, session_id, target_turn, status, created_at) VALUES ('r1', ?, ?, 1, 'applied', 1)").run(parentCopy.workspace_id, parentCopy.id)
    expect(made).toMatchObject({ sessions: 6, copies: 3, messages: 2 * subCopy })
    expect(made.journalEntries).toBeGreaterThan(0)
    before.close()
    await before.closed

    // The store as it was before 024: that migration not yet applied.
    const raw = new Database(join(dataDir, 'retrace.db'))
    schemaBefore(raw, FOLD)
    raw.close()

    const after = runtime({ claude: home.root }, { dataDir })
    const folded = counts(databaseOf(after.store))
    expect(folded).toEqual({ ...made, sessions: 3, copies: 0, messages: subCopy, checkpoints: subCheckpoints, journalEntries: made.journalEntries, blobs: made.blobs, rewinds: 1 })
    const rewound = databaseOf(after.store).prepare("SELECT s.workspace_id AS ws, w.path FROM rewinds r JOIN sessions s ON s.id = r.session_id JOIN workspaces w ON w.id = s.workspace_id WHERE r.id = 'r1'").get()
    expect(rewound).toMatchObject({ path: SUB })
    // Opening the parent again imports nothing anew: the session is found where it is stored.
    const report = await after.imports.importWorkspace(after.store.workspaces.getByPath(PARENT)?.id ?? 0)
    expect(report.sessions).toBe(0)
    expect(counts(databaseOf(after.store)).sessions).toBe(3)
  })

  it.each(['opening the subfolder', 'import --all'] as const)('moves a session only the parent folder held (made before R59) to its subfolder on %s, nothing lost (R60)', async (how) => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SUB)
    const rt = runtime({ claude: home.root })
    // Before R59, opening the parent alone stored the subfolder's session under the parent.
    const parent = rt.store.workspaces.open(PARENT, 'spotter-worktrees')
    const [claude] = adaptersFor(['claude-code'])
    if (!claude) throw new Error('no claude-code adapter')
    const found = await claude.discover(PARENT, claude.roots(rt.imports.environment))
    const importFiles = (rt.imports as unknown as { importFiles: ImportFilesInto }).importFiles.bind(rt.imports)
    await importFiles({ id: parent, path: PARENT }, found.map((file) => ({ adapter: claude, file })), {})
    const db = databaseOf(rt.store)
    const made = counts(db)
    expect(made).toMatchObject({ sessions: 3, copies: 3 })

    if (how === 'import --all') await rt.imports.importAll()
    else await rt.imports.importWorkspace(rt.store.workspaces.open(SUB, 'spotter-4te'))

    const now = counts(db)
    // Stored once, under the subfolder; the parent's journal entries of it stay (its file history).
    expect(now).toMatchObject({ sessions: 3, copies: 0, messages: made.messages, checkpoints: made.checkpoints, blobs: made.blobs })
    expect(now.journalEntries).toBeGreaterThanOrEqual(made.journalEntries)
    const shown = rt.store.sessions.list({ workspaceId: parent, limit: 10, includeWarmups: true, withSubfolders: true }).items
    expect(shown.map((s) => s.folder)).toEqual(['spotter-4te', 'spotter-4te', 'spotter-4te'])
  })
})
