import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome } from './testing/claude-home'

// Codex 0.154.0 rollouts (fixtures/codex/paginated/PROVENANCE.txt): one apply_patch edits
// src/upload.ts, whose earlier content no line holds, so the change cannot be journaled.
const CODEX_HOME = fileURLToPath(new URL('../../../fixtures/codex/paginated/paginated', import.meta.url))
const CODEX_CWD = '/work/project'
const PARENT = '01a0b3da-c522-7af2-8a6d-2e1aed53b269'

const { tempDir, runtime } = importTestbed('retrace-not-captured-')

describe('changes not captured, stored against their turn (R42)', () => {
  it('keeps an apply_patch whose earlier content is unknown on its turn, with the tool, path and reason', async () => {
    const home = join(tempDir(), 'codex')
    cpSync(CODEX_HOME, home, { recursive: true })
    const rt = runtime({ codex: home })
    const workspaceId = rt.store.workspaces.open(CODEX_CWD, 'project')
    const report = await rt.imports.importWorkspace(workspaceId)
    expect(report.changesNotJournaled).toHaveLength(1)
    const call = contractCaller(rt)
    const parent = rt.store.sessions.bySourceId(workspaceId, 'codex', PARENT)
    const detail = await call('sessions.get', { sessionId: parent?.id ?? '' })
    const entries = detail.checkpoints.flatMap((c) => c.notCaptured)
    expect(entries).toEqual([{ turn: expect.any(Number) as number, tool: 'apply_patch', path: 'src/upload.ts', reason: 'its earlier content is unknown' }])
    const turn = entries[0]?.turn
    expect(detail.checkpoints.find((c) => c.turn === turn)?.coverage.notCaptured).toBe(1)
    expect(detail.coverage.notCaptured).toBe(1)
    expect(detail.coverage.recorded).toBe(detail.checkpoints.reduce((sum, c) => sum + c.coverage.recorded, 0))
    // The list says it too, and an import with nothing new adds nothing.
    await rt.imports.importWorkspace(workspaceId)
    const listed = await call('sessions.list', { workspaceId, limit: 50 })
    expect(listed.items.find((s) => s.id === parent?.id)?.coverage.notCaptured).toBe(1)
  })

  it('keeps an edit outside the workspace as the agent wrote its path, and a fork, an export and a deletion carry it', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const cwd = join(tempDir(), 'project')
    mkdirSync(cwd, { recursive: true })
    const file = home.session(cwd)
    file.prompt('write two files')
    file.write('inside.txt', 'in\n', null)
    file.tool('Write', { file_path: '/etc/elsewhere.conf', content: 'x' }, { type: 'create', filePath: '/etc/elsewhere.conf', content: 'x', structuredPatch: [], originalFile: null })
    file.prompt('and one more')
    file.write('second.txt', 'two\n', null)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'project')
    await rt.imports.importWorkspace(workspaceId)
    const call = contractCaller(rt)
    const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', file.sessionId)
    const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
    expect(detail.checkpoints.map((c) => [c.turn, c.notCaptured, c.coverage])).toEqual([
      [1, [{ turn: 1, tool: 'Write', path: '/etc/elsewhere.conf', reason: 'outside the workspace' }], { recorded: 1, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false }],
      [2, [], { recorded: 1, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }]
    ])
    expect(detail.coverage).toEqual({ recorded: 2, notCaptured: 1, uncapturedCommands: 0, agentKeepsNoContent: false })

    // A fork at turn 2 keeps turn 1 and its entry.
    const fork = await call('sessions.fork', { sessionId: detail.id, turn: 2 })
    const forked = await call('sessions.get', { sessionId: fork.sessionId })
    expect(forked.checkpoints.flatMap((c) => c.notCaptured)).toEqual(detail.checkpoints[0]?.notCaptured)

    // An export brought back as a new session keeps it.
    const exported = await call('export.render', { sessionId: detail.id, format: 'json', redact: false })
    const back = await call('export.importJson', { workspaceId, json: exported.content })
    const imported = await call('sessions.get', { sessionId: back.sessionId })
    expect(imported.checkpoints.flatMap((c) => c.notCaptured)).toEqual(detail.checkpoints[0]?.notCaptured)

    // Deleting the session takes its entries along.
    rt.store.sessions.delete(rt.store.sessions.require(detail.id).rowId)
    expect(rt.store.notCaptured.list(rt.store.sessions.get(detail.id)?.rowId ?? -1)).toEqual([])
  })

  it("settles a Write whose result is not written yet as not captured, and takes it back when the result comes (R43)", async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const cwd = join(tempDir(), 'project')
    mkdirSync(cwd, { recursive: true })
    const file = home.session(cwd)
    file.prompt('write a file')
    file.write('later.txt', 'later\n', null)
    // The agent is still running the call: its result line is not in the file yet.
    const lines = readFileSync(file.path, 'utf8').trimEnd().split('\n')
    const result = lines.pop() ?? ''
    writeFileSync(file.path, `${lines.join('\n')}\n`)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'project')
    await rt.imports.importWorkspace(workspaceId)
    const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', file.sessionId)
    const rowId = session?.rowId ?? -1
    expect(rt.store.notCaptured.list(rowId)).toEqual([{ turn: 1, tool: 'Write', path: 'later.txt', reason: "the agent's history holds no result for this call" }])
    expect(rt.store.sessions.get(session?.id ?? '')?.coverage).toMatchObject({ recorded: 0, notCaptured: 1 })

    appendFileSync(file.path, `${result}\n`)
    await rt.imports.importWorkspace(workspaceId)
    expect(rt.store.notCaptured.list(rowId)).toEqual([])
    expect(rt.store.sessions.get(session?.id ?? '')?.coverage).toMatchObject({ recorded: 1, notCaptured: 0 })
  })

  it('reports a call of a tool the source does not know when its input names a file, once (R43)', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const cwd = join(tempDir(), 'project')
    mkdirSync(cwd, { recursive: true })
    const file = home.session(cwd)
    file.prompt('use the formatter')
    file.tool('mcp__fmt__format', { target_file: join(cwd, 'src/app.ts') }, 'formatted')
    file.tool('mcp__docs__search', { query: 'how to format src/app.ts' }, 'found')
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'project')
    const report = await rt.imports.importWorkspace(workspaceId)
    await rt.imports.importWorkspace(workspaceId)
    const session = rt.store.sessions.bySourceId(workspaceId, 'claude-code', file.sessionId)
    expect(rt.store.notCaptured.list(session?.rowId ?? -1)).toEqual([{ turn: 1, tool: 'unknown tool "mcp__fmt__format"', path: 'src/app.ts', reason: 'unknown tool, may have changed files' }])
    expect(report.changesNotJournaled.map((entry) => entry.reason)).toEqual([`file change not captured (unknown tool, may have changed files): mcp__fmt__format call naming ${join(cwd, 'src/app.ts')}`])
  })
})
