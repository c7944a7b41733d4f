import { cpSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { copiedHistories, RECORDED } from './testing/copied-histories'
import type { HistoryFile } from './adapter'
import { splitByWorkspace } from './source-folders'

describe('folders added to a workspace as a source\'s history', () => {
  const { tempDir, runtime } = importTestbed('retrace-source-folders-')

  it('imports a CianaParrot deployment kept elsewhere into the workspace, lists it, and stops on removal (keeping what came)', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: tempDir() })
    const deployment = join(tempDir(), 'parrot')
    cpSync(join(FIXTURES, 'cianaparrot/deployment'), deployment, { recursive: true })

    const added = await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: deployment })
    expect(added.report.sessions).toBe(7)
    expect((await call('workspaces.sourceFolders', { workspaceId: workspace.id })).items).toEqual([{ id: added.folder.id, source: 'cianaparrot', path: deployment, addedAt: expect.any(Number) as number }])
    expect((await call('sessions.list', { workspaceId: workspace.id })).items).toHaveLength(7)
    // Its agent state shows with the workspace's.
    expect((await call('workspaces.agentState', { workspaceId: workspace.id })).sources.map((source) => source.location)).toEqual([deployment])
    // Imported again with the workspace: nothing new.
    expect((await call('imports.run', { workspaceId: workspace.id })).sessions).toBe(0)

    expect(await call('workspaces.removeSourceFolder', { workspaceId: workspace.id, folderId: added.folder.id })).toEqual({ removed: true })
    expect((await call('workspaces.sourceFolders', { workspaceId: workspace.id })).items).toEqual([])
    expect((await call('sessions.list', { workspaceId: workspace.id })).items).toHaveLength(7)
  })

  it('imports a copied ~/.claude\'s sessions of this workspace here, the others into their own workspaces, and the session at `/` into a read-only one', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: tempDir() })
    // Real histories recorded in two other folders, plus one session in a folder inside this workspace and one at `/`.
    const copy = copiedHistories(tempDir()).claude
    const home = new ClaudeHome(copy)
    const inside = home.session(join(workspace.path, 'packages', 'app'))
    inside.prompt('Inside this workspace')
    inside.say('Here.')
    const root = home.session('/')
    root.prompt('At the root of the disk')

    const added = await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'claude-code', path: copy })
    expect(added.report.sessions).toBe(1)
    expect((await call('sessions.list', { workspaceId: workspace.id })).items.map((session) => session.title)).toEqual(['Inside this workspace'])
    const others = await call('workspaces.listAll', {})
    const idOf = (path: string) => others.items.find((item) => item.path === path)?.workspaceId
    expect(added.elsewhere.workspaces).toEqual([
      { id: idOf(RECORDED.spotter), path: RECORDED.spotter, sessions: 3 },
      { id: idOf(RECORDED.codemie), path: RECORDED.codemie, sessions: 3 }
    ].sort((a, b) => a.path.localeCompare(b.path)))
    // Issue 40 §5: a session recorded at `/` goes into its read-only workspace (it used to be refused).
    expect(added.elsewhere.refused).toEqual([])
    expect(added.elsewhere.readOnly).toEqual([{ id: idOf('/'), path: '/', reason: expect.stringContaining('the root of a disk') as string, sessions: 1 }])
    expect((await call('sessions.list', { workspaceId: idOf('/') ?? 0 })).items.map((session) => session.title)).toEqual(['At the root of the disk'])
    expect((await call('workspaces.get', { workspaceId: idOf('/') ?? 0 })).readOnly).toContain('the root of a disk')
    const spotter = added.elsewhere.workspaces.find((item) => item.path === RECORDED.spotter)
    expect((await call('sessions.list', { workspaceId: spotter?.id ?? 0 })).items).toHaveLength(3)

    // Each workspace follows the folder for its own sessions: imported again, nothing moves or doubles.
    expect((await call('workspaces.sourceFolders', { workspaceId: spotter?.id ?? 0 })).items.map((folder) => folder.path)).toEqual([copy])
    expect((await call('imports.run', { workspaceId: workspace.id })).sessions).toBe(0)
    expect((await call('imports.run', { workspaceId: spotter?.id ?? 0 })).sessions).toBe(0)
    expect((await call('sessions.list', { workspaceId: workspace.id })).items).toHaveLength(1)
  })

  it('says where each source looks, and refuses an unknown source or a missing folder', async () => {
    const call = contractCaller(runtime({}))
    const sources = (await call('sources.list', {})).items
    expect(sources.map((source) => source.name)).toEqual(expect.arrayContaining(['claude-code', 'codex', 'cianaparrot', 'langgraph']))
    for (const source of sources) expect(source.looksIn.length).toBeGreaterThan(10)
    const workspace = await call('workspaces.open', { path: tempDir() })
    await expect(call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'nobody', path: tempDir() })).rejects.toMatchObject({ code: 'VALIDATION' })
    const missing = join(tempDir(), 'gone')
    await expect(call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: missing })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
    mkdirSync(missing)
    expect((await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'cianaparrot', path: missing })).report.sessions).toBe(0)
  })
})

describe('the same session in the agent\'s folder and in a copy of it added as a source folder', () => {
  const { tempDir, runtime } = importTestbed('retrace-source-copies-')

  it('imports it once, so its messages and their search hits are there once, whichever was imported first', async () => {
    for (const copyFirst of [false, true]) {
      const workspace = tempDir()
      const home = new ClaudeHome(join(tempDir(), 'claude'))
      const session = home.session(workspace)
      session.prompt('find the zebracorn please')
      session.say('The zebracorn is here.')
      const copy = join(tempDir(), 'copy')
      cpSync(home.root, copy, { recursive: true })
      // Copy first: the agent's own folder is found only by a later run (a runtime that looks there).
      const dataDir = join(tempDir(), 'data')
      const first = runtime({ claude: copyFirst ? join(tempDir(), 'empty') : home.root }, { dataDir })
      let call = contractCaller(first)
      const opened = await call('workspaces.open', { path: workspace })
      await call('imports.run', { workspaceId: opened.id })
      const added = await call('workspaces.addSourceFolder', { workspaceId: opened.id, source: 'claude-code', path: copy })
      expect(added.report.messages).toBe(copyFirst ? 2 : 0)
      first.close()
      call = contractCaller(runtime({ claude: home.root }, { dataDir }))
      await call('imports.run', { workspaceId: opened.id })

      const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
      expect(sessions.map((item) => item.messageCount)).toEqual([2])
      const hits = await call('search.messages', { query: 'zebracorn', workspaceId: opened.id })
      expect(hits.items.map((hit) => hit.seq)).toEqual([1, 0])
    }
  })
})

describe('a copy of the agent folder added to one workspace, holding sessions another workspace already imported', () => {
  const { tempDir, runtime } = importTestbed('retrace-source-spread-')

  it('leaves that workspace\'s sessions as they were: nothing doubled', async () => {
    const roots = copiedHistories(tempDir())
    const call = contractCaller(runtime({ claude: roots.claude }))
    const spotter = await call('workspaces.open', { path: RECORDED.spotter })
    await call('imports.run', { workspaceId: spotter.id })
    const counts = async () => (await call('sessions.list', { workspaceId: spotter.id })).items.map((item) => item.messageCount).sort()
    const before = await counts()
    expect(before).toHaveLength(3)

    const copy = join(tempDir(), 'copy')
    cpSync(roots.claude, copy, { recursive: true })
    const workspace = await call('workspaces.open', { path: tempDir() })
    const added = await call('workspaces.addSourceFolder', { workspaceId: workspace.id, source: 'claude-code', path: copy })
    expect(added.elsewhere.workspaces.find((item) => item.path === RECORDED.spotter)).toEqual({ id: spotter.id, path: RECORDED.spotter, sessions: 0 })
    expect(await counts()).toEqual(before)
    expect((await call('imports.run', { workspaceId: spotter.id })).messages).toBe(0)
    expect(await counts()).toEqual(before)
  })
})

describe('retrace import WORKSPACE --source claude-code --path COPY', () => {
  const { tempDir } = importTestbed('retrace-source-folder-cli-')

  it('imports this workspace\'s sessions, sends the others to their own workspaces, and says where they went', async () => {
    const { runCli } = await import('../cli/main')
    const workspace = tempDir()
    const copy = copiedHistories(tempDir()).claude
    const session = new ClaudeHome(copy).session(workspace)
    session.prompt('Only this one is here')
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent' }
    const out: string[] = []
    const code = await runCli(['import', workspace, '--source', 'claude-code', '--path', copy, '--data-dir', join(tempDir(), 'data')], { out: (text) => out.push(text), err: () => undefined }, env)
    expect(code).toBe(0)
    const text = out.join('\n')
    expect(text).toContain('1 new session,')
    expect(text).toContain('6 sessions of other folders went into their own workspaces:')
    expect(text).toContain(`  ${RECORDED.spotter}  3 new`)
    expect(text).toContain(`  ${RECORDED.codemie}  3 new`)
  })
})

describe('which of an added folder\'s sessions belong to the workspace', () => {
  const file = (sessionId: string, cwd: string | undefined, extra: Partial<HistoryFile> = {}): HistoryFile =>
    ({ source: 'claude-code', path: `/copy/${sessionId}.jsonl`, sessionId, role: 'main', cwd, ...extra }) as HistoryFile

  it('keeps the workspace\'s folder, folders inside it, the added folder itself and no folder; sends a sibling with a longer name elsewhere', () => {
    const { here, elsewhere } = splitByWorkspace(
      [
        file('same', '/w/app'),
        file('inside', '/w/app/packages/ui/'),
        file('sibling', '/w/app-old'),
        file('deployment', '/copy'),
        file('none', undefined),
        // A sub-agent goes where the session that started it goes, whatever it recorded.
        file('agent', '/elsewhere', { role: 'sub-agent', parentSessionId: 'same' })
      ],
      '/w/app',
      '/copy'
    )
    expect(here.map((found) => found.sessionId)).toEqual(['same', 'agent', 'inside', 'deployment', 'none'])
    expect([...elsewhere.keys()]).toEqual(['/w/app-old'])
  })
})
