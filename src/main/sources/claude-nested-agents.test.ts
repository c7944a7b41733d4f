import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { ClaudeHome, type ClaudeSessionFile } from './testing/claude-home'

// Sub-agents that start sub-agents, and workflow agents, in the layout Claude Code 2.1.2xx
// writes (docs/formats.md §2.1): every agent's transcript flat in `<session>/subagents/`, its
// `agent-<id>.meta.json` saying `spawnDepth`, `parentAgentId` (depth ≥ 2), `agentType` and
// `model` (absent: the caller's); workflow agents in `subagents/workflows/<run>/` with
// `{"agentType":"workflow-subagent"}`. Written here by the test, from the shapes readers of real
// sessions report (no public session folder holds nested agents).

const { tempDir, runtime } = importTestbed('retrace-nested-agents-')
const CWD = '/work/nested'

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile()) out[path] = createHash('sha256').update(readFileSync(path)).digest('hex')
  }
  return out
}

interface AgentSpec {
  id: string
  folder?: string
  meta: Record<string, unknown>
  /** The agent this one starts with an Agent call, and that call's id. */
  starts?: { agentId: string; callId: string; description: string }
  /** Only its prompt: still running, no answer (so no model of its own yet). */
  running?: boolean
  startedAt: string
}

/** One agent's transcript and metadata, as Claude Code 2.1 writes them. */
function writeAgent(session: ClaudeSessionFile, spec: AgentSpec): void {
  const folder = join(session.path.replace(/\.jsonl$/, ''), 'subagents', spec.folder ?? '')
  mkdirSync(folder, { recursive: true })
  const base = { isSidechain: true, agentId: spec.id, userType: 'external', cwd: CWD, sessionId: session.sessionId, version: '2.1.278', timestamp: spec.startedAt }
  const lines: Record<string, unknown>[] = [{ ...base, type: 'user', uuid: `${spec.id}-1`, parentUuid: null, message: { role: 'user', content: `task of ${spec.id}` } }]
  const answer = (uuid: string, parent: string, content: unknown[]) => ({ ...base, type: 'assistant', uuid, parentUuid: parent, message: { id: `msg_${uuid}`, model: 'claude-opus-5', role: 'assistant', content } })
  if (spec.starts) {
    const { agentId, callId, description } = spec.starts
    lines.push(answer(`${spec.id}-2`, `${spec.id}-1`, [{ type: 'tool_use', id: callId, name: 'Agent', input: { description, prompt: `task of ${agentId}`, subagent_type: 'Explore' } }]))
    lines.push({
      ...base,
      type: 'user',
      uuid: `${spec.id}-3`,
      parentUuid: `${spec.id}-2`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: [{ type: 'text', text: `done\nagentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)` }] }] },
      toolUseResult: { status: 'completed', agentId, content: [{ type: 'text', text: 'done' }] }
    })
  }
  if (!spec.running) lines.push(answer(`${spec.id}-9`, lines.at(-1)?.uuid as string, [{ type: 'text', text: `${spec.id} finished` }]))
  writeFileSync(join(folder, `agent-${spec.id}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  writeFileSync(join(folder, `agent-${spec.id}.meta.json`), JSON.stringify(spec.meta))
}

async function importHome(home: ClaudeHome) {
  const rt = runtime({ claude: home.root })
  const workspaceId = rt.store.workspaces.open(CWD, 'ws')
  await rt.imports.importWorkspace(workspaceId)
  const call = contractCaller(rt)
  const bySource = (sourceId: string) => rt.store.sessions.bySourceId(workspaceId, 'claude-code', sourceId)
  const seqOfCall = (sessionUid: string | undefined, callId: string) => rt.store.messages.seqOfToolCall(rt.store.sessions.require(sessionUid ?? '').rowId, callId)
  return { rt, workspaceId, call, bySource, seqOfCall }
}

/** A session that starts a1, which starts a2, which starts a3; and a workflow run of one agent. */
function nestedSession(home: ClaudeHome, times: [string, string, string]): ClaudeSessionFile {
  const session = home.session(CWD, '5a5a5a5a-0000-4000-8000-000000000001')
  session.prompt('audit the game')
  session.tool('Agent', { description: 'Audit 1', prompt: 'task of a1', subagent_type: 'general-purpose' }, { status: 'completed', agentId: 'a1', content: [] }, 'done\nagentId: a1')
  writeAgent(session, {
    id: 'a1',
    meta: { agentType: 'general-purpose', description: 'Audit 1', toolUseId: 'toolu_unknown', spawnDepth: 1, model: 'opus' },
    starts: { agentId: 'a2', callId: 'toolu_a2', description: 'Audit UI' },
    startedAt: times[0]
  })
  writeAgent(session, {
    id: 'a2',
    meta: { agentType: 'Explore', description: 'Audit UI', toolUseId: 'toolu_a2', spawnDepth: 2, parentAgentId: 'a1' },
    starts: { agentId: 'a3', callId: 'toolu_a3', description: 'Audit menus' },
    startedAt: times[1]
  })
  writeAgent(session, { id: 'a3', meta: { agentType: 'Explore', description: 'Audit menus', toolUseId: 'toolu_a3', spawnDepth: 3, parentAgentId: 'a2', model: 'haiku' }, running: true, startedAt: times[2] })
  writeAgent(session, { id: 'w1', folder: join('workflows', 'wf_demo01'), meta: { agentType: 'workflow-subagent' }, startedAt: times[2] })
  writeFileSync(join(session.path.replace(/\.jsonl$/, ''), 'subagents', 'workflows', 'wf_demo01', 'journal.jsonl'), '{"type":"started","key":"v2:hash0","agentId":"w1"}\n')
  return session
}

describe('Claude Code sub-agents nested several levels, and workflow agents', () => {
  it('hangs each agent below the agent that started it, at its call, at the depth its metadata says', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = nestedSession(home, ['2026-09-02T10:00:00.000Z', '2026-09-02T10:01:00.000Z', '2026-09-02T10:02:00.000Z'])
    const before = hashes(home.root)
    const { bySource, seqOfCall, call, workspaceId, rt } = await importHome(home)

    const main = bySource(session.sessionId)
    const [a1, a2, a3, w1] = ['a1', 'a2', 'a3', 'w1'].map((id) => bySource(`${session.sessionId}/agent-${id}`))
    expect(a1).toMatchObject({ kind: 'sub-agent', parentId: main?.id, depth: 1, title: 'Audit 1' })
    expect(a2).toMatchObject({ kind: 'sub-agent', parentId: a1?.id, depth: 2, forkSeq: seqOfCall(a1?.id, 'toolu_a2'), title: 'Audit UI' })
    expect(a3).toMatchObject({ kind: 'sub-agent', parentId: a2?.id, depth: 3, forkSeq: seqOfCall(a2?.id, 'toolu_a3'), title: 'Audit menus' })
    // A workflow's agents hang below the session that ran the workflow; its journal is no session.
    expect(w1).toMatchObject({ kind: 'sub-agent', parentId: main?.id, depth: 1 })
    expect(rt.store.sessions.list({ workspaceId, limit: 50, includeWarmups: true }).items).toHaveLength(5)

    // The tree the window draws.
    const detail = await call('sessions.get', { sessionId: a2?.id ?? '' })
    expect(detail.parent?.id).toBe(a1?.id)
    expect(detail.children.map((child) => child.id)).toEqual([a3?.id])
    expect((await call('sessions.get', { sessionId: main?.id ?? '' })).children.map((child) => child.id).sort()).toEqual([a1?.id, w1?.id].sort())

    // The kind of agent, and the model: what it ran on once it answered, what it was asked for until then.
    expect(detail).toMatchObject({ agentType: 'Explore', model: 'claude-opus-5' })
    expect(await call('sessions.get', { sessionId: a3?.id ?? '' })).toMatchObject({ agentType: 'Explore', model: 'haiku' })
    expect(await call('sessions.get', { sessionId: w1?.id ?? '' })).toMatchObject({ agentType: 'workflow-subagent' })
    const listed = await call('sessions.list', { workspaceId })
    expect(listed.items.find((s) => s.id === a1?.id)?.agentType).toBe('general-purpose')
    expect(listed.items.find((s) => s.id === main?.id)?.agentType).toBeUndefined()
    expect(hashes(home.root)).toEqual(before)

    // Later, a line of the session names a2 with a1's call (a call the session does not hold):
    // read incrementally, it does not move a2 out from below a1.
    session.raw(JSON.stringify({ type: 'progress', uuid: 'p-a2', parentUuid: session.tip, sessionId: session.sessionId, cwd: CWD, timestamp: '2026-09-02T10:03:00.000Z', data: { type: 'agent_progress', agentId: 'a2' }, parentToolUseID: 'toolu_a2' }))
    await rt.imports.importWorkspace(workspaceId)
    expect(bySource(`${session.sessionId}/agent-a2`)).toMatchObject({ parentId: a1?.id, depth: 2, forkSeq: seqOfCall(a1?.id, 'toolu_a2') })
  })

  it('gets the same tree when an agent’s file says it started before the agent that started it', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    // Clock skew, or a copied folder: sub-agents are imported newest first, so here the parents
    // come before their children (the other way round from the first test).
    const session = nestedSession(home, ['2026-09-02T10:02:00.000Z', '2026-09-02T10:01:00.000Z', '2026-09-02T10:00:00.000Z'])
    const { bySource, seqOfCall } = await importHome(home)
    const [a1, a2, a3] = ['a1', 'a2', 'a3'].map((id) => bySource(`${session.sessionId}/agent-${id}`))
    expect(a2).toMatchObject({ parentId: a1?.id, depth: 2, forkSeq: seqOfCall(a1?.id, 'toolu_a2'), missingParent: null })
    expect(a3).toMatchObject({ parentId: a2?.id, depth: 3, forkSeq: seqOfCall(a2?.id, 'toolu_a3'), missingParent: null })
  })
})
