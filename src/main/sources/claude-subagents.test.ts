import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { encodeProjectFolder } from './claude-code/project-folder'

// Real projects of claude-code-log's author (fixtures/claude-code/claude-code-log/PROVENANCE.txt).
const SET = join(FIXTURES, 'claude-code/claude-code-log')
const CODERABBIT = '/Users/dain/workspace/coderabbit-review-helper'
const CODERABBIT_DIR = join(SET, '-Users-dain-workspace-coderabbit-review-helper')
const CODERABBIT_MAIN = 'cb2e607c-c758-415a-8b45-c49e4631906a'
/** Its file is over 4 MiB: not in the fixture, as if deleted. Nine agent files name it. */
const CODERABBIT_GONE = '741790a4-4fe2-4644-9a51-fb4482074060'
const JSS = '/Users/dain/workspace/JSSoundRecorder'
const TEAM = '-experiments/worktrees'
const TEAM_MAIN = 'ef958aa1-0e93-49f0-bb71-150f63befcd1'

const { tempDir, runtime } = importTestbed('retrace-subagents-')

async function imported(project: string, cwd: string, home = new ClaudeHome(join(tempDir(), 'claude'))) {
  home.addFixtureProject(join(SET, project), cwd)
  const rt = runtime({ claude: home.root })
  const workspaceId = rt.store.workspaces.open(cwd, 'ws')
  const report = await rt.imports.importWorkspace(workspaceId)
  return { rt, workspaceId, report, home }
}

function everySession(rt: Runtime, workspaceId: number) {
  return rt.store.sessions.list({ workspaceId, limit: 500, includeWarmups: true }).items
}

function agentId(sourceSessionId: string | null): string {
  return sourceSessionId?.split('/agent-')[1] ?? ''
}

function seqOfCall(rt: Runtime, sessionUid: string, toolCallId: string): number | undefined {
  return rt.store.messages.seqOfToolCall(rt.store.sessions.require(sessionUid).rowId, toolCallId) ?? undefined
}

describe('Claude Code 2.0.x warm-up agents and their empty sessions', () => {
  it('places every agent under the session it names, empty or not, and says which parent is missing', async () => {
    const { rt, workspaceId } = await imported('-Users-dain-workspace-coderabbit-review-helper', CODERABBIT)
    const sessions = everySession(rt, workspaceId)
    const agents = sessions.filter((s) => s.kind === 'sub-agent')
    expect(agents).toHaveLength(29)
    // 20 name a session whose file is there (9 of those files are empty), 9 name the missing one.
    expect(agents.filter((s) => s.parentId !== null)).toHaveLength(20)
    expect(agents.filter((s) => s.parentId === null).map((s) => s.missingParent)).toEqual(Array(9).fill(CODERABBIT_GONE))
    expect(agents.filter((s) => s.parentId !== null).every((s) => s.missingParent === null)).toBe(true)

    const empty = sessions.filter((s) => s.kind === 'main' && s.messageCount === 0)
    expect(empty).toHaveLength(9)
    for (const session of empty) expect(rt.store.sessions.children(rt.store.sessions.require(session.id).rowId).length).toBeGreaterThan(0)

    // The Task call of CC 2.0.37 names its agent in toolUseResult.agentId: the agent hangs there.
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', CODERABBIT_MAIN)
    const task = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${CODERABBIT_MAIN}/agent-ea02459f`)
    expect(task).toMatchObject({ parentId: main?.id, depth: 1, forkSeq: seqOfCall(rt, main?.id ?? '', 'toolu_01HD7PpSCWhP2gP8dXvJiyZN') })
    // Titled by the call's description, as the meta.json of later versions does.
    expect(task?.title).toBe('Explore project structure for packaging')
    // Started when its first line was written, not when Retrace read it.
    expect(task?.createdAt).toBe(Date.parse('2025-11-17T11:23:34.469Z'))
  })

  it('recognises the warm-ups (a "Warmup" prompt or none, and no tool call) and leaves them out of the list by default', async () => {
    const { rt, workspaceId } = await imported('-Users-dain-workspace-coderabbit-review-helper', CODERABBIT)
    const agents = everySession(rt, workspaceId).filter((s) => s.kind === 'sub-agent')
    const real = agents.filter((s) => !s.warmup).map((s) => agentId(rt.store.sessions.require(s.id).sourceSessionId))
    expect(real.sort()).toEqual(['668b5ac2', '9fa17969', 'b52b1c09', 'db734024', 'ea02459f', 'f36dc5e5'])
    // Three 2.0.55 agents wrote only their answer, without the "Warmup" line: warm-ups too.
    expect(agents.filter((s) => s.warmup && s.title === '')).toHaveLength(3)

    const call = contractCaller(rt)
    const listed = await call('sessions.list', { workspaceId })
    // The main session, its Task agent and the five real agents of the missing session; the
    // 23 warm-ups and the 9 empty sessions that only held warm-ups are counted, not listed.
    expect(listed.items.map((s) => s.kind).sort()).toEqual(['main', 'sub-agent', 'sub-agent', 'sub-agent', 'sub-agent', 'sub-agent', 'sub-agent'])
    expect(listed.hiddenWarmups).toBe(32)
    const all = await call('sessions.list', { workspaceId, includeWarmups: true })
    expect(all).toMatchObject({ hiddenWarmups: 0 })
    expect(all.items).toHaveLength(39)
    const tree = await call('sessions.tree', { workspaceId })
    expect(tree.nodes.filter((n) => n.warmup)).toHaveLength(32)
    expect(tree.nodes.filter((n) => n.missingParent === CODERABBIT_GONE)).toHaveLength(9)
  })

  it('keeps one-line warm-ups (2.0.42, 2.0.44) under a session with messages, which stays listed', async () => {
    const { rt, workspaceId } = await imported('-Users-dain-workspace-JSSoundRecorder', JSS)
    const sessions = everySession(rt, workspaceId)
    const agents = sessions.filter((s) => s.kind === 'sub-agent')
    expect(agents).toHaveLength(8)
    expect(agents.every((s) => s.warmup && s.parentId !== null)).toBe(true)
    const main = sessions.find((s) => s.kind === 'main' && s.messageCount > 0)
    expect(main).toMatchObject({ kind: 'main', warmup: false })
    expect(agents.filter((s) => s.parentId === main?.id)).toHaveLength(4)
    expect(rt.store.sessions.list({ workspaceId, limit: 50 }).items.map((s) => s.id)).toEqual([main?.id])
  })

  it('links agents imported before their session, whenever that session arrives', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = join(home.root, 'projects', encodeProjectFolder(CODERABBIT))
    home.addFixtureProject(CODERABBIT_DIR, CODERABBIT)
    // As Claude Code runs: the agents' files first, the session's own lines later.
    const mainFile = join(folder, `${CODERABBIT_MAIN}.jsonl`)
    copyFileSync('/dev/null', mainFile)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(CODERABBIT, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const before = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${CODERABBIT_MAIN}/agent-ea02459f`)
    const shell = rt.store.sessions.bySourceId(workspaceId, 'claude-code', CODERABBIT_MAIN)
    // The empty file is there: its session is made empty and holds the agent, not yet placed.
    expect(shell).toMatchObject({ messageCount: 0 })
    expect(before).toMatchObject({ parentId: shell?.id, forkSeq: null })

    copyFileSync(join(CODERABBIT_DIR, `${CODERABBIT_MAIN}.jsonl`), mainFile)
    await rt.imports.importWorkspace(workspaceId)
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', CODERABBIT_MAIN)
    expect(main?.id).toBe(shell?.id)
    expect(main).toMatchObject({ warmup: false })
    expect(main?.messageCount).toBeGreaterThan(0)
    const after = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${CODERABBIT_MAIN}/agent-ea02459f`)
    expect(after).toMatchObject({ parentId: main?.id, forkSeq: seqOfCall(rt, main?.id ?? '', 'toolu_01HD7PpSCWhP2gP8dXvJiyZN') })
  })

  it('adopts agents whose session file appears only later', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = home.addFixtureProject(CODERABBIT_DIR, CODERABBIT)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(CODERABBIT, 'ws')
    // Not written at all yet (as in claude-code-log-sample, where the files never were).
    rmSync(join(folder, '1ca217c4-f55d-4f6e-a994-b7e2231336f0.jsonl'))
    await rt.imports.importWorkspace(workspaceId)
    const orphans = everySession(rt, workspaceId).filter((s) => s.missingParent === '1ca217c4-f55d-4f6e-a994-b7e2231336f0')
    expect(orphans).toHaveLength(2)

    const session = home.session(CODERABBIT, '1ca217c4-f55d-4f6e-a994-b7e2231336f0')
    session.prompt('package it with uv')
    await rt.imports.importWorkspace(workspaceId)
    const parent = rt.store.sessions.bySourceId(workspaceId, 'claude-code', '1ca217c4-f55d-4f6e-a994-b7e2231336f0')
    for (const orphan of orphans) expect(rt.store.sessions.require(orphan.id)).toMatchObject({ parentId: parent?.id, missingParent: null, depth: 1 })
    expect(parent).toMatchObject({ warmup: false, messageCount: 1 })
  })
})

describe('Claude Code 2.1.x teammates started in waves with the Agent tool', () => {
  it('hangs each at the Agent call that started it, titled by its task description', async () => {
    const { rt, workspaceId } = await imported('-experiments-worktrees', TEAM)
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', TEAM_MAIN)
    const agents = everySession(rt, workspaceId).filter((s) => s.kind === 'sub-agent')
    const placed = agents.map((s) => {
      const record = rt.store.sessions.require(s.id)
      return { agent: agentId(record.sourceSessionId), parent: record.parentId, seq: record.forkSeq, title: record.title, warmup: record.warmup, type: record.agentType }
    })
    const call = (id: string) => seqOfCall(rt, main?.id ?? '', id)
    // Calls and results read from the file (tool_use ids, toolUseResult.agentId); titles are the
    // meta.json descriptions, their kinds its agentType. Wave one ran in worktrees, wave two
    // re-spawned the same three.
    expect(placed.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))).toEqual([
      { agent: 'a4ca7529859c158c2', parent: main?.id, seq: call('toolu_01GmrK6tgdD9D5xD6W5X9UUy'), title: 'Research Claude Code plan mode', warmup: false, type: 'general-purpose' },
      { agent: 'a52886dc180afb356', parent: main?.id, seq: call('toolu_016neBD9WjCCZqzRTP3afGDT'), title: 'Research Claude Code teammates', warmup: false, type: 'general-purpose' },
      { agent: 'ab1e6e141221a29ab', parent: main?.id, seq: call('toolu_01EaAN7bPNQrMTGoKhbEjVrx'), title: 'Research Steve Yegge Beads', warmup: false, type: 'general-purpose' },
      { agent: 'a36efb2a1231c41e2', parent: main?.id, seq: call('toolu_017y4gSjMWeQ3L2DAKiygU2y'), title: 'Round 2: alice comparison', warmup: false, type: 'general-purpose' },
      { agent: 'aef063ba534d73153', parent: main?.id, seq: call('toolu_01N26s4U6vDxE1NRAH5CyCNf'), title: 'Round 2: bob comparison', warmup: false, type: 'general-purpose' },
      { agent: 'a6aa8ad077d9ea083', parent: main?.id, seq: call('toolu_0151DrVyXBXfb63SXGNF1qDb'), title: 'Round 2: carol comparison', warmup: false, type: 'general-purpose' }
    ])
    expect(new Set(placed.map((p) => p.seq)).size).toBe(6)
  })
})

describe('a Claude Code 2.1.x sub-agent still running', () => {
  it('is placed at its Task call from the progress lines, before the call\'s result names it', async () => {
    const cwd = '/home/USER/projects/spotter-worktrees/spotter-4te'
    const main = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const folder = home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), cwd)
    // The session's file as it was while the agent ran: cut before the Task result.
    const lines = readFileSync(join(folder, `${main}.jsonl`), 'utf8').split('\n')
    const result = lines.findIndex((line) => line.includes('"agentId":"aac57f5"') && line.includes('"toolUseResult"'))
    expect(result).toBeGreaterThan(0)
    writeFileSync(join(folder, `${main}.jsonl`), `${lines.slice(0, result).join('\n')}\n`)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const parent = rt.store.sessions.bySourceId(workspaceId, 'claude-code', main)
    const agent = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${main}/agent-aac57f5`)
    expect(agent).toMatchObject({ parentId: parent?.id, forkSeq: seqOfCall(rt, parent?.id ?? '', 'toolu_01Hf8v1Za7y4af8VUwSR4CXU') })
    expect(agent?.forkSeq).not.toBeNull()
  })
})

describe('Claude Code 1.0.x sidechains inside the session file', () => {
  it('make a sub-agent of their own, hanging at the Task call whose prompt they were given', async () => {
    const cwd = '/Users/dain/workspace/claude-code-log'
    const sessionId = 'df749439-8556-41bf-9965-9f49cf38bf2a'
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    // An 8-line excerpt of a 1.0.35 session: the Task call, then seven sidechain lines without agentId.
    home.session(cwd, sessionId)
    copyFileSync(join(SET, 'sidechain-1.0.35.jsonl'), join(home.root, 'projects', encodeProjectFolder(cwd), `${sessionId}.jsonl`))
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const main = rt.store.sessions.bySourceId(workspaceId, 'claude-code', sessionId)
    const agent = rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${sessionId}/agent-toolu_01VJzVGXqdaUe6AYX6CAJUHz`)
    expect(main).toMatchObject({ messageCount: 1 }) // the Task call alone
    expect(agent).toMatchObject({ kind: 'sub-agent', parentId: main?.id, forkSeq: seqOfCall(rt, main?.id ?? '', 'toolu_01VJzVGXqdaUe6AYX6CAJUHz'), warmup: false })
    expect(agent?.title).toBe('Debug failing test output')
    expect(agent?.turnCount).toBe(1)
  })
})

describe('Claude Code summary lines', () => {
  it('title the session holding the message they name, not the file they are in, and a summary of no imported session is reported', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const { rt, workspaceId, report } = await imported('-Users-dain-workspace-danieldemmel-me-next', '/Users/dain/workspace/danieldemmel.me-next', home)
    const title = (id: string) => rt.store.sessions.bySourceId(workspaceId, 'claude-code', id)?.title
    // 3680252d opens with the summaries of three earlier sessions, then the user ran /model.
    expect(title('b25638d7-b104-4f06-a797-70ac33d069ed')).toBe('HTML Ruby Tokenizer Conversion for Better Browser Support')
    // Not the last summary of another session: the user only ran /model there, a local command
    // (no prompt, no turn), so it has no title of its own.
    expect(title('3680252d-d4e3-4416-bddd-8f5b5b4fdb7f')).toBe('')
    const file = join(home.root, 'projects', encodeProjectFolder('/Users/dain/workspace/danieldemmel.me-next'), '3680252d-d4e3-4416-bddd-8f5b5b4fdb7f.jsonl')
    // The other two name sessions whose files are not in the fixture.
    expect(report.skipped.filter((s) => s.reason.startsWith('summary '))).toEqual([
      { file, offset: 0, reason: expect.stringContaining('"CSS Details Margin Styling" names message f29ff328-9634-4c27-8fc6-5e04c3ee78cc') as string },
      { file, offset: 108, reason: expect.stringContaining('"Tokenizer App Documentation: Technical Details and Usage"') as string }
    ])
  })

  it('a file of summaries alone makes no session, and says what it names', async () => {
    const { rt, workspaceId, report, home } = await imported('-Users-dain-workspace-claude-code-log-sample', '/Users/dain/workspace/claude-code-log')
    const sessions = everySession(rt, workspaceId)
    expect(sessions.filter((s) => s.kind === 'main')).toHaveLength(0)
    // Its four warm-ups name sessions whose files were never written.
    expect(sessions.filter((s) => s.kind === 'sub-agent' && s.warmup && s.missingParent !== null)).toHaveLength(4)
    const file = join(home.root, 'projects', encodeProjectFolder('/Users/dain/workspace/claude-code-log'), '4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl')
    expect(report.skipped).toEqual([{ file, offset: 0, reason: expect.stringContaining('summary "TUI Cache Handling: Empty State Fix" names message 2369a617') as string }])
  })
})

describe('the fixture', () => {
  it('holds the files the tests count on', () => {
    expect(readdirSync(CODERABBIT_DIR).filter((name) => name.startsWith('agent-'))).toHaveLength(29)
  })
})

describe('Claude Code 2.1.x compaction agent (`agent-acompact-*`)', () => {
  it('is not listed as a sub-agent: its summary is already the session\'s compaction', async () => {
    // A real 2.1.39 session (fixtures/claude-code/spotter) with the file Claude Code's /compact
    // agent wrote: its standard summary request and the summary, which the session itself holds
    // as its compact-summary line.
    const cwd = '/home/USER/projects/spotter-worktrees/spotter-4te'
    const main = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), cwd)
    const rt = runtime({ claude: home.root })
    const workspaceId = rt.store.workspaces.open(cwd, 'ws')
    await rt.imports.importWorkspace(workspaceId)
    const listed = await contractCaller(rt)('sessions.list', { workspaceId })
    const agents = listed.items.filter((s) => s.kind === 'sub-agent').map((s) => agentId(rt.store.sessions.require(s.id).sourceSessionId))
    expect(agents).toEqual(['aac57f5'])
    // Kept, with its usage, and counted among the hidden sessions.
    expect(listed.hiddenWarmups).toBe(1)
    expect(rt.store.sessions.bySourceId(workspaceId, 'claude-code', `${main}/agent-acompact-946d2b`)).toMatchObject({ warmup: true, kind: 'sub-agent' })
  })
})
