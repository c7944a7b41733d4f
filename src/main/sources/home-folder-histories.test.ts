import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime } = importTestbed('retrace-home-histories-')

/** A Codex rollout in its real format: session_meta with `cwd`, then per turn a prompt, an apply_patch call and its output. */
function writeRollout(codexHome: string, id: string, cwd: string, prompts: string[]): string {
  const folder = join(codexHome, 'sessions', '2026', '01', '01')
  mkdirSync(folder, { recursive: true })
  const at = (second: number) => `2026-01-01T10:00:${String(second).padStart(2, '0')}.000Z`
  const lines: object[] = [{ timestamp: at(0), type: 'session_meta', payload: { id, timestamp: at(0), cwd, originator: 'codex-tui', cli_version: '0.125.0', source: 'cli', model_provider: 'openai' } }]
  prompts.forEach((prompt, i) => {
    const callId = `call_${id.slice(-4)}_${i}`
    const patch = `*** Begin Patch\n*** Add File: .config/tool-${i}.conf\n+setting = ${i}\n*** End Patch\n`
    lines.push(
      { timestamp: at(3 * i + 1), type: 'event_msg', payload: { type: 'user_message', message: prompt, images: [], local_images: [], text_elements: [] } },
      { timestamp: at(3 * i + 2), type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: patch } },
      { timestamp: at(3 * i + 3), type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: callId, output: 'Success. Updated the following files.' } }
    )
  })
  const path = join(folder, `rollout-2026-01-01T10-00-00-${id}.jsonl`)
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
  return path
}

const HOME_SESSION = '019b0000-0000-7000-8000-00000000d0d0'
const SECOND_HOME_SESSION = '019b0000-0000-7000-8000-00000000d0d1'
const PROJECT_SESSION = '019b0000-0000-7000-8000-00000000e0e0'

/** Agents run in a container record `/root` (the home folder) as their folder: issue 40 §5. */
describe('histories recorded in the home folder', () => {
  let home: string
  let codexHome: string
  let project: string
  beforeEach(() => {
    const dir = tempDir()
    home = join(dir, 'root')
    codexHome = join(dir, 'codex')
    project = join(home, 'app')
    mkdirSync(project, { recursive: true })
    vi.stubEnv('HOME', home)
    writeRollout(codexHome, HOME_SESSION, home, ['configure the linter for me', 'and the formatter'])
    writeRollout(codexHome, SECOND_HOME_SESSION, home, ['what is in this container?'])
    writeRollout(codexHome, PROJECT_SESSION, project, ['add a readme'])
  })
  afterEach(() => vi.unstubAllEnvs())

  it('are imported read-only, counted as sessions, listed, searchable, exportable and forkable without files, never rewound', async () => {
    const rt = runtime({ codex: codexHome })
    const call = contractCaller(rt)
    const report = await rt.imports.importAll()
    expect(report.workspaces.map((workspace) => workspace.path)).toEqual([project])
    expect(report.readOnly.map((folder) => [folder.cwd, folder.sessions])).toEqual([[home, 2]])
    expect(report.readOnly[0]?.reason).toContain('your home folder')

    const workspaceId = report.readOnly[0]?.workspaceId ?? 0
    const workspace = await call('workspaces.get', { workspaceId })
    expect(workspace.readOnly).toContain(`"${home}" as a workspace: it is your home folder`)
    const listed = (await call('workspaces.listAll', {})).items.find((item) => item.path === home)
    expect(listed).toMatchObject({ workspaceId, sessionCount: 2, refused: expect.stringContaining('your home folder') as unknown })
    const sessions = (await call('sessions.list', { workspaceId })).items
    expect(sessions.map((session) => [session.title, session.turnCount]).sort()).toEqual([['configure the linter for me', 2], ['what is in this container?', 1]])
    // Their file changes are reported, never kept: nothing a rewind could write into the home folder.
    expect(databaseOf(rt.store).prepare('SELECT count(*) AS n FROM journal_entries WHERE path LIKE ?').get('.config/%')).toEqual({ n: 0 })
    expect(report.changesNotJournaled.map((line) => line.reason)).toEqual(expect.arrayContaining([expect.stringContaining('the workspace is a home or system folder')]))

    const found = await call('search.messages', { workspaceId, query: 'formatter' })
    expect(found.items.map((hit) => hit.sessionId)).toContain(sessions.find((session) => session.turnCount === 2)?.id)
    const session = sessions.find((entry) => entry.turnCount === 2)
    const sessionId = session?.id ?? ''
    const exported = await call('export.render', { sessionId, format: 'md', redact: false })
    expect(exported.content).toContain('configure the linter for me')
    const fork = await call('sessions.fork', { sessionId, turn: 2 })
    expect(fork.rewind).toBeNull()
    await expect(call('sessions.fork', { sessionId, turn: 2, withFiles: true })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('your home folder') as string })
    await expect(call('rewind.plan', { sessionId, turn: 1 })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('your home folder') as string })
    expect(existsSync(join(home, '.config'))).toBe(false)

    // Opened by hand, it is the same read-only workspace: its own sessions, not its subfolders'.
    const opened = await call('workspaces.open', { path: home })
    expect(opened).toMatchObject({ id: workspaceId, readOnly: expect.stringContaining('your home folder') as unknown })
    await call('imports.run', { workspaceId, sources: ['codex'] })
    // The two recorded there and the fork; the project's session stays in the project's workspace.
    expect((await call('sessions.list', { workspaceId })).items.map((entry) => entry.title).sort()).toEqual(['configure the linter for me', 'configure the linter for me (branch at turn 2)', 'what is in this container?'])
  })

  it('retrace import --all, retrace workspaces and retrace import PATH say they are read-only, why, and how many sessions', async () => {
    const { runCli } = await import('../cli/main')
    const out: string[] = []
    const io = { out: (text: string) => out.push(text), err: () => undefined }
    const env = { HOME: home, CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: codexHome }
    const dataDir = join(tempDir(), 'data')
    expect(await runCli(['import', '--all', '--data-dir', dataDir], io, env)).toBe(0)
    const text = out.join('\n')
    expect(text).toContain('1 workspace found.')
    expect(text).toContain(`2 sessions recorded in ${home} imported read-only (browse, search, export, fork without files; never rewound):`)
    expect(text).toContain('it is your home folder')
    out.length = 0
    expect(await runCli(['workspaces', '--data-dir', dataDir], io, env)).toBe(0)
    const listing = out.join('\n')
    expect(listing).toMatch(new RegExp(`read-only\\s.*${home.replaceAll('/', '\\/')}`))
    expect(listing).toContain('1 read-only (a home or system folder: browsable, never rewound)')
    out.length = 0
    expect(await runCli(['import', home, '--data-dir', dataDir], io, env)).toBe(0)
    expect(out.join('\n')).toContain(`Read-only (browse, search, export, fork without files; never rewound): Retrace does not use "${home}" as a workspace: it is your home folder.`)
  })
})
