import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliCaller } from '../cli/call'
import { sessionsCommand } from '../cli/commands'
import type { Runtime } from '../runtime/runtime'
import { databaseOf } from '../store/raw-database'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

// The real spotter session (Claude Code 2.1.39, with sub-agents) ran in a worktree folder; its
// parent folder holds it and the worktree's siblings.
const SUB = '/home/USER/projects/spotter-worktrees/spotter-4te'
const PARENT = '/home/USER/projects/spotter-worktrees'
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'

const { tempDir, runtime } = importTestbed('retrace-one-row-')

function spotterRuntime(): Runtime {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SUB)
  return runtime({ claude: home.root })
}

/** Where each stored copy of the spotter session's files is: one row per (workspace, session). */
function storedCopies(rt: Runtime): { workspace: string; kind: string; sessions: number }[] {
  return databaseOf(rt.store)
    .prepare(
      `SELECT w.path AS workspace, s.kind, count(*) AS sessions FROM sessions s JOIN workspaces w ON w.id = s.workspace_id
       WHERE s.source_session_id LIKE ? GROUP BY w.path, s.kind ORDER BY w.path, s.kind`
    )
    .all(`${SESSION}%`) as { workspace: string; kind: string; sessions: number }[]
}

async function openAndImport(rt: Runtime, path: string): Promise<number> {
  const id = rt.store.workspaces.open(path, path.split('/').at(-1) ?? path)
  await rt.imports.importWorkspace(id)
  return id
}

describe('one session, one row (R59)', () => {
  it('opening the parent folder after the subfolder leaves the session stored once, under the folder it ran in', async () => {
    const rt = spotterRuntime()
    await openAndImport(rt, SUB)
    const before = storedCopies(rt)
    expect(before.map((row) => row.workspace)).toEqual([SUB, SUB])
    await openAndImport(rt, PARENT)
    expect(storedCopies(rt)).toEqual(before)
  })

  it('opening the parent folder first stores the subfolder session under the subfolder, and opening that later adds nothing', async () => {
    const rt = spotterRuntime()
    await openAndImport(rt, PARENT)
    const afterParent = storedCopies(rt)
    expect(afterParent.map((row) => row.workspace)).toEqual([SUB, SUB])
    const report = await rt.imports.importWorkspace(rt.store.workspaces.open(SUB, 'spotter-4te'))
    expect(report.sessions).toBe(0)
    expect(storedCopies(rt)).toEqual(afterParent)
  })

  it("shows the subfolders' sessions in the parent folder's list, tree, search and usage, marked with their folder, each once", async () => {
    const rt = spotterRuntime()
    const call = contractCaller(rt)
    const sub = await openAndImport(rt, SUB)
    const parent = await openAndImport(rt, PARENT)
    const own = await call('sessions.list', { workspaceId: sub })
    const shown = await call('sessions.list', { workspaceId: parent })
    expect(shown.items.map((s) => [s.id, s.folder])).toEqual(own.items.map((s) => [s.id, 'spotter-4te']))
    expect(own.items.every((s) => s.folder === undefined)).toBe(true)
    const tree = await call('sessions.tree', { workspaceId: parent })
    expect(tree.nodes.map((n) => [n.id, n.folder, n.parentId]).sort()).toEqual((await call('sessions.tree', { workspaceId: sub })).nodes.map((n) => [n.id, 'spotter-4te', n.parentId]).sort())
    const word = 'spotter'
    const hitsHere = await call('search.messages', { query: word, workspaceId: parent, limit: 100 })
    const hitsThere = await call('search.messages', { query: word, workspaceId: sub, limit: 100 })
    expect(hitsHere.items.length).toBeGreaterThan(0)
    expect(hitsHere.items.map((h) => h.messageId)).toEqual(hitsThere.items.map((h) => h.messageId))
    const usageHere = await call('usage.workspace', { workspaceId: parent })
    const usageThere = await call('usage.workspace', { workspaceId: sub })
    expect(usageHere.total.inputTokens).toBeGreaterThan(0)
    expect(usageHere.total).toEqual(usageThere.total)
  })

  it("Gemini CLI's nested projects (projects.json naming a folder and a folder inside it) are each stored once, under their own folder", async () => {
    const real = join(FIXTURES, 'gemini-cli', 'codemie', 'gemini')
    const parent = tempDir()
    const sub = join(parent, 'packages', 'app')
    mkdirSync(sub, { recursive: true })
    const home = tempDir()
    const gemini = join(home, '.gemini')
    // The registry as Gemini CLI's ProjectRegistry writes it, and one real recording per project.
    mkdirSync(join(gemini, 'tmp'), { recursive: true })
    writeFileSync(join(gemini, 'projects.json'), JSON.stringify({ projects: { [parent]: 'parent', [sub]: 'app' } }))
    for (const [slug, file] of [['parent', 'session-2025-12-01T21-45-5b959dae.json'], ['app', 'session-2026-01-16T11-01-file-ops-37b7abef.json']] as const) {
      mkdirSync(join(gemini, 'tmp', slug, 'chats'), { recursive: true })
      cpSync(join(real, file), join(gemini, 'tmp', slug, 'chats', file), { preserveTimestamps: true })
    }
    const rt = runtime({}, { env: { GEMINI_CLI_HOME: home } })
    const call = contractCaller(rt)
    await openAndImport(rt, sub)
    await openAndImport(rt, parent)
    const stored = databaseOf(rt.store)
      .prepare(`SELECT w.path AS workspace, s.title FROM sessions s JOIN workspaces w ON w.id = s.workspace_id WHERE s.source = 'gemini-cli' ORDER BY s.title`)
      .all()
    expect(stored).toEqual([
      { workspace: parent, title: 'hi' },
      { workspace: sub, title: 'show tools' }
    ])
    const shown = await call('sessions.list', { workspaceId: rt.store.workspaces.getByPath(parent)?.id ?? 0 })
    expect(shown.items.map((s) => [s.title, s.folder ?? null]).sort()).toEqual([['hi', null], ['show tools', 'packages/app']])
  })

  /** The real spotter session, its recorded folder moved onto this disk as a subfolder of a parent. */
  function spotterUnderParent() {
    const parent = tempDir()
    const ranIn = join(parent, 'spotter-4te')
    mkdirSync(ranIn)
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const project = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), ranIn)
    for (const name of readdirSync(project, { recursive: true, encoding: 'utf8' })) {
      const path = join(project, name)
      if (name.endsWith('.jsonl')) writeFileSync(path, readFileSync(path, 'utf8').replaceAll(SUB, ranIn))
    }
    return { parent, ranIn, rt: runtime({ claude: home.root }) }
  }

  it('`retrace sessions <parent>` lists the subfolder session once, naming its folder', async () => {
    const { parent, rt } = spotterUnderParent()
    const out: string[] = []
    await sessionsCommand(cliCaller(rt), { path: parent, json: false, all: true, io: { out: (text) => out.push(text), err: () => undefined } })
    const rows = out.join('\n').split('\n').filter((line) => line.includes('claude-code'))
    expect(rows).toHaveLength(3)
    expect(rows.every((line) => line.includes('[in spotter-4te/'))).toBe(true)
  })

  it('rewinds a subfolder session opened from the parent folder in the folder it ran in (R62)', async () => {
    const { parent, ranIn, rt } = spotterUnderParent()
    const call = contractCaller(rt)
    const report = await rt.imports.importWorkspace(rt.store.workspaces.open(parent, 'parent'))
    expect(report.fileChanges).toBeGreaterThan(0)
    const listed = (await call('sessions.list', { workspaceId: rt.store.workspaces.getByPath(parent)?.id ?? 0 })).items
    const main = listed.find((s) => s.kind === 'main')
    expect(main?.folder).toBe('spotter-4te')
    const plan = await call('rewind.plan', { sessionId: main?.id ?? '', turn: 1 })
    expect(plan.root).toBe(ranIn)
    expect(plan.items.length).toBeGreaterThan(0)
    // Paths relative to the folder it ran in, not to the parent it was opened from.
    expect(plan.items.filter((item) => item.path.startsWith('spotter-4te/'))).toEqual([])
  })

  it("a home folder's read-only workspace shows the sessions recorded in it, not every project below it", async () => {
    const home = tempDir()
    const project = join(home, 'spotter-4te')
    mkdirSync(project)
    const claude = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = claude.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), project)
    for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
      const path = join(folder, name)
      if (name.endsWith('.jsonl')) writeFileSync(path, readFileSync(path, 'utf8').replaceAll(SUB, project))
    }
    // The real codemie session, recorded as run in the home folder itself (as agents in containers record /root).
    claude.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), home)
    for (const name of readdirSync(join(claude.root, 'projects'), { recursive: true, encoding: 'utf8' })) {
      const path = join(claude.root, 'projects', name)
      if (name.endsWith('.jsonl')) writeFileSync(path, readFileSync(path, 'utf8').replaceAll('"cwd":"/tmp/private"', `"cwd":${JSON.stringify(home)}`))
    }
    const rt = runtime({ claude: claude.root }, { env: { HOME: home } })
    await rt.imports.importAll()
    const call = contractCaller(rt)
    const homeId = rt.store.workspaces.getByPath(home)?.id ?? 0
    const listed = (await call('sessions.list', { workspaceId: homeId, includeWarmups: true })).items
    expect(listed.length).toBeGreaterThan(0)
    expect(listed.filter((s) => s.folder !== undefined)).toEqual([])
    expect((await call('sessions.tree', { workspaceId: homeId })).nodes.filter((n) => n.folder !== undefined)).toEqual([])
    // The project's own workspace lists its sessions.
    expect((await call('sessions.list', { workspaceId: rt.store.workspaces.getByPath(project)?.id ?? 0, includeWarmups: true })).items).toHaveLength(3)
  })

  it("a Copilot CLI session started in a repository's subfolder stays at the repository's root, and the subfolder shows it (one row)", async () => {
    // The writer-built Copilot CLI session (fixtures/copilot-cli/PROVENANCE.txt), started in packages/app of a repository.
    const fixture = join(FIXTURES, 'copilot-cli', 'writer-1.0', 'session-state')
    const main = '5d0f4b7e-2c41-4f7a-9a55-0c9e3f6b1a21'
    const recorded = '/home/dev/notes-app'
    const repository = tempDir()
    const startedIn = join(repository, 'packages', 'app')
    mkdirSync(startedIn, { recursive: true })
    const home = join(tempDir(), 'copilot-home')
    const folder = join(home, 'session-state', main)
    mkdirSync(folder, { recursive: true })
    cpSync(join(fixture, main), folder, { recursive: true })
    writeFileSync(join(folder, 'events.jsonl'), readFileSync(join(folder, 'events.jsonl'), 'utf8').replaceAll(recorded, repository).replaceAll(`"cwd":"${repository}"`, `"cwd":"${startedIn}"`))
    writeFileSync(join(folder, 'workspace.yaml'), readFileSync(join(folder, 'workspace.yaml'), 'utf8').replaceAll(recorded, repository).replace(`cwd: ${repository}`, `cwd: ${startedIn}`))
    writeFileSync(join(repository, 'TODO.md'), '# TODO\n\n- [x] sync notes\n- [ ] add search\n')
    const rt = runtime({}, { env: { COPILOT_HOME: home } })
    const call = contractCaller(rt)
    await openAndImport(rt, repository)
    const sub = await openAndImport(rt, startedIn)
    const stored = databaseOf(rt.store)
      .prepare("SELECT w.path AS workspace, count(*) AS n FROM sessions s JOIN workspaces w ON w.id = s.workspace_id WHERE s.source = 'copilot-cli' GROUP BY w.path")
      .all()
    expect(stored).toEqual([{ workspace: repository, n: 2 }])
    const shown = (await call('sessions.list', { workspaceId: sub, includeWarmups: true })).items
    expect(shown.map((s) => s.source)).toEqual(['copilot-cli', 'copilot-cli'])
    expect((await call('sessions.tree', { workspaceId: sub })).nodes).toHaveLength(2)
    expect((await call('usage.workspace', { workspaceId: sub })).total).toEqual((await call('usage.workspace', { workspaceId: rt.store.workspaces.getByPath(repository)?.id ?? 0 })).total)
  })
})
