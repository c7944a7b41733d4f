import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime } = importTestbed('retrace-gone-')

const CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'

/** Real Claude Code files (the spotter set) in a Claude config folder. */
function claudeHome(): { home: ClaudeHome; file: string; hashes: () => string } {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), CWD)
  const file = join(folder, `${SESSION}.jsonl`)
  return { home, file, hashes: () => createHash('sha256').update(readFileSync(file)).digest('hex') }
}

const messageCount = (rt: ReturnType<typeof runtime>) => (databaseOf(rt.store).prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n

describe('a session whose file the agent deleted', () => {
  it('stays with all its messages, marked, and the mark goes when the file comes back', async () => {
    const { home, file, hashes } = claudeHome()
    const before = hashes()
    const rt = runtime({ claude: home.root })
    const call = contractCaller(rt)
    const first = await rt.imports.importAll()
    expect(first.sourcesGone).toEqual({ marked: 0, cleared: 0 })
    expect(hashes()).toBe(before) // read, never written
    const workspaceId = first.workspaces[0]?.id ?? 0
    const session = () => call('sessions.list', { workspaceId, limit: 100 }).then((page) => page.items.find((item) => item.source === 'claude-code' && item.title !== '' && item.id === rt.store.sessions.bySourceId(workspaceId, 'claude-code', SESSION)?.id))
    const listed = await session()
    expect(listed?.sourceDeletedAt).toBeNull()
    const messages = messageCount(rt)
    expect(listed?.messageCount).toBeGreaterThan(0)

    // Claude Code's clean-up removes the file; Retrace imports again.
    const aside = join(tempDir(), 'aside.jsonl')
    renameSync(file, aside)
    const second = await rt.imports.importAll()
    expect(second.sourcesGone).toEqual({ marked: 1, cleared: 0 })
    const marked = await session()
    expect(marked?.sourceDeletedAt).toBeGreaterThan(0)
    expect(marked?.messageCount).toBe(listed?.messageCount)
    expect(messageCount(rt)).toBe(messages)
    expect(rt.store.importFiles.goneSessionCounts()).toEqual([{ source: 'claude-code', sessions: 1, firstGoneAt: marked?.sourceDeletedAt }])
    const detail = await call('sessions.get', { sessionId: marked?.id ?? '' })
    expect(detail.sourceDeletedAt).toBe(marked?.sourceDeletedAt)

    // Importing again marks nothing twice.
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 0 })

    // Moved back: the mark is cleared.
    renameSync(aside, file)
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 1 })
    expect((await session())?.sourceDeletedAt).toBeNull()
    expect(hashes()).toBe(before)

    // Deleted again, then restored from a backup (a new file at the same path): read again, unmarked.
    copyFileSync(file, aside)
    rmSync(file)
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 1, cleared: 0 })
    copyFileSync(aside, file)
    await rt.imports.importAll()
    const restored = await session()
    expect(restored?.sourceDeletedAt).toBeNull()
    expect(restored?.messageCount).toBe(listed?.messageCount)
    expect(messageCount(rt)).toBe(messages)
  })

  it('is not marked when the whole agent folder is missing (an unplugged disk) or the variable points elsewhere', async () => {
    const { home } = claudeHome()
    const dataDir = join(tempDir(), 'data')
    const rt = runtime({ claude: home.root }, { dataDir })
    await rt.imports.importAll()
    rt.close()

    const unplugged = join(tempDir(), 'unplugged')
    renameSync(home.root, unplugged)
    const again = runtime({ claude: home.root }, { dataDir })
    expect((await again.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 0 })
    again.close()

    // CLAUDE_CONFIG_DIR names another (existing) folder this time: the old files are not under it.
    const elsewhere = new ClaudeHome(join(tempDir(), 'other-claude'))
    const other = runtime({ claude: elsewhere.root }, { dataDir })
    expect((await other.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 0 })
    expect(other.store.importFiles.goneSessionCounts()).toEqual([])
    rmSync(unplugged, { recursive: true, force: true })
  })
})

describe('a snapshot source\'s file deleted by its agent (Gemini CLI)', () => {
  it('keeps the session, marked, and counts the file once', async () => {
    const home = tempDir()
    const project = '/home/USER/projects/gemini-demo'
    const folder = join(home, '.gemini', 'tmp', 'demo')
    mkdirSync(join(folder, 'chats'), { recursive: true })
    writeFileSync(join(folder, '.project_root'), project)
    const session = join(folder, 'chats', 'session-2025-12-01T21-45-5b959dae.json')
    copyFileSync(join(FIXTURES, 'gemini-cli/codemie/gemini/session-2025-12-01T21-45-5b959dae.json'), session)
    const rt = runtime({}, { env: { GEMINI_CLI_HOME: home } })
    const call = contractCaller(rt)
    const first = await rt.imports.importAll({ sources: ['gemini-cli'] })
    const workspaceId = first.workspaces[0]?.id ?? 0
    const before = (await call('sessions.list', { workspaceId, limit: 10 })).items
    expect(before.length).toBeGreaterThan(0)
    expect(before.every((item) => item.sourceDeletedAt === null)).toBe(true)

    rmSync(session)
    expect((await rt.imports.importAll({ sources: ['gemini-cli'] })).sourcesGone).toEqual({ marked: 1, cleared: 0 })
    const after = (await call('sessions.list', { workspaceId, limit: 10 })).items
    expect(after.map((item) => item.messageCount)).toEqual(before.map((item) => item.messageCount))
    expect(after.every((item) => item.sourceDeletedAt !== null)).toBe(true)
  })
})

describe('a Codex rollout the agent compressed or archived', () => {
  it('is not marked deleted; one really deleted is', async () => {
    const { zstdCompressSync } = await import('node:zlib')
    const ROLLOUT = 'sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'
    const codex = join(tempDir(), 'codex')
    const path = join(codex, ROLLOUT)
    mkdirSync(join(path, '..'), { recursive: true })
    copyFileSync(join(FIXTURES, 'codex/codemie', ROLLOUT), path)
    const rt = runtime({ codex })
    expect((await rt.imports.importAll()).sessions).toBe(1)

    // Compressed beside itself (Codex's idle-rollout compression).
    writeFileSync(`${path}.zst`, zstdCompressSync(readFileSync(path)))
    rmSync(path)
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 0 })

    // Archived (`codex archive`).
    mkdirSync(join(codex, 'archived_sessions'))
    renameSync(`${path}.zst`, join(codex, 'archived_sessions', `${ROLLOUT.split('/').pop() ?? ''}.zst`))
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 0, cleared: 0 })

    // Gone from both places: deleted.
    rmSync(join(codex, 'archived_sessions'), { recursive: true })
    expect((await rt.imports.importAll()).sourcesGone).toEqual({ marked: 1, cleared: 0 })
    expect(rt.store.importFiles.goneSessionCounts()).toEqual([expect.objectContaining({ source: 'codex', sessions: 1 })])
  })
})
