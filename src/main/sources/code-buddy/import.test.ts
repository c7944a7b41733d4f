import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'

const FIXTURE = join(FIXTURES, 'code-buddy')
const ZOD = 'Refactor config loader to zod'


async function transcript(call: ContractCall, sessionId: string): Promise<Message[]> {
  return (await call('transcript.page', { sessionId, limit: 500 })).items
}

function countRoles(messages: Message[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const message of messages) counts[message.role] = (counts[message.role] ?? 0) + 1
  return counts
}

describe('importing a Code Buddy home', () => {
  const { tempDir, runtime } = importTestbed('retrace-code-buddy-')

  /** A copy of a fixture folder (a Code Buddy home), opened as the workspace: its own sessions are shown. */
  async function openCopy(fixture: string) {
    const home = join(tempDir(), 'codebuddy-home')
    cpSync(join(FIXTURE, fixture), home, { recursive: true, preserveTimestamps: true })
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: home })
    return { home, call, workspace }
  }

  it('imports every session file with each message type, tool calls paired, turns from the prompts', async () => {
    const { home, call, workspace } = await openCopy('home')
    const before = folderListing(home)
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
    // 4 session files + 5 branch files (2 folders); the lock file is not a session.
    expect(report).toMatchObject({ files: 1, sessions: 9, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, source: 'code-buddy' })).items
    expect(sessions).toHaveLength(9)
    const byTitle = (title: string) => sessions.find((session) => session.title === title)

    // README § Sessions: the four session files, as Retrace shows them (a branched session with its copied prefix).
    const files = [
      { title: 'Difference between reconcile and rebalance', messages: 4, turns: 2, roles: { user: 2, reasoning: 1, assistant: 1 } },
      { title: ZOD, messages: 23, turns: 2, roles: { user: 2, assistant: 4, tool_call: 5, tool_result: 6, reasoning: 2, system: 4 } },
      { title: `${ZOD} (branch)`, messages: 8, turns: 2, roles: { user: 2, assistant: 2, tool_call: 1, tool_result: 1, reasoning: 1, system: 1 } },
      { title: 'Add CSV export endpoint', messages: 3, turns: 1, roles: { user: 1, tool_call: 1, system: 1 } }
    ]
    const all: Message[] = []
    let pairs = 0
    for (const expected of files) {
      const session = byTitle(expected.title)
      expect(session, expected.title).toBeDefined()
      expect([session?.messageCount, session?.turnCount]).toEqual([expected.messages, expected.turns])
      const messages = await transcript(call, session?.id ?? '')
      expect(countRoles(messages)).toEqual(expected.roles)
      const callIds = new Set(messages.filter((message) => message.role === 'tool_call').map((message) => message.toolCallId))
      pairs += messages.filter((message) => message.role === 'tool_result' && callIds.has(message.toolCallId)).length
      all.push(...messages)
    }
    // Totals: 38 messages; user 7 turns; 7 calls, 7 results, 1 failed; plan_progress 4 + steer 1 + diff_preview 1 as notes.
    expect(all).toHaveLength(38)
    expect(countRoles(all)).toEqual({ user: 7, assistant: 7, tool_call: 7, tool_result: 7, reasoning: 4, system: 6 })
    expect(all.filter((message) => message.role === 'tool_result' && message.isError)).toHaveLength(1)
    expect(all.filter((message) => message.content.startsWith('Plan progress: Task state checkpoint\nObjective:'))).toHaveLength(3)

    // The zod session: each result answers the nearest unanswered call of its tool; message 18 answers none.
    const zod = await transcript(call, byTitle(ZOD)?.id ?? '')
    const calls = new Map(zod.filter((message) => message.role === 'tool_call').map((message) => [message.toolCallId, message]))
    const results = zod.filter((message) => message.role === 'tool_result')
    const paired = results.filter((result) => calls.get(result.toolCallId)?.toolName === result.toolName)
    expect(paired.map((result) => result.seq)).toEqual([4, 7, 10, 14, 17])
    const orphan = results.find((result) => result.seq === 18)
    expect(orphan).toMatchObject({ toolName: 'bash', isError: false })
    expect(calls.has(orphan?.toolCallId ?? null)).toBe(false)
    // Over the 4 files: 7 calls, 7 results; 6 pairs, the orphan result above, and the locked session's unanswered call.
    expect(pairs).toBe(6)
    expect(zod[14]).toMatchObject({ role: 'tool_result', toolName: 'bash', isError: true })
    expect(zod[13]).toMatchObject({ role: 'tool_call', toolName: 'bash', content: '' })
    expect(zod[11]).toMatchObject({ role: 'system', turn: 1 })
    expect(zod[11]?.content).toContain('steered')
    expect(zod[8]?.content).toMatch(/^Diff preview for str_replace_editor:\n```diff\n--- a\/src\/config.ts/)
    expect(zod[5]?.content).toContain('- [x] 1. Read current loader\n- [ ] 2. Find callers of loadConfig (in progress, current step)')
    expect(zod.map((message) => message.turn)).toEqual([...Array<number>(21).fill(1), 2, 2])
    // The locked session's last call is unanswered; its plan_progress has no task state.
    const locked = await transcript(call, byTitle('Add CSV export endpoint')?.id ?? '')
    expect(locked.map((message) => message.role)).toEqual(['user', 'system', 'tool_call'])
    expect(locked[1]?.content).toBe('Plan progress: Plan: 1) find the transfers query 2) add the route 3) stream rows with a CSV writer 4) test')

    // Nothing new: nothing is read or imported again, and nothing was written in the home.
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })).toMatchObject({ files: 0, sessions: 0 })
    expect(folderListing(home)).toEqual(before)
  })

  it('draws branchSession copies and branch files as branches at their fork points, nested forks and merges included', async () => {
    const { home, call, workspace } = await openCopy('home')
    await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
    const tree = await call('sessions.tree', { workspaceId: workspace.id })
    const node = (title: string) => tree.nodes.find((candidate) => candidate.title === title)
    const zod = node(ZOD)
    const main = node(`Main conversation — ${ZOD}`)
    const schema = node('zod-schema')
    const hand = node('hand-validators')
    const strict = node('zod-strict')
    // branchSession(S1, 5) copied messages 0…5: a branch of S1 after its 6th message.
    expect(node(`${ZOD} (branch)`)).toMatchObject({ kind: 'branch', parentId: zod?.id, forkSeq: 6 })
    // main of the zod folder: a root; A and B fork from it, C (nested) from A. Fork seqs count
    // records: main's first 5 messages make 6 (an assistant text with its tool call is two).
    expect(main).toMatchObject({ kind: 'main', parentId: null, messageCount: 14, turnCount: 4 })
    expect(schema).toMatchObject({ kind: 'branch', parentId: main?.id, forkSeq: 6, messageCount: 12 })
    expect(hand).toMatchObject({ kind: 'branch', parentId: main?.id, forkSeq: 2, messageCount: 4 })
    expect(strict).toMatchObject({ kind: 'branch', parentId: schema?.id, forkSeq: 9, messageCount: 11 })
    expect(node('Main conversation — no session')).toMatchObject({ kind: 'main', parentId: null, messageCount: 2 })
    // README § Branches: C merged into A (replace), then A into main (append), in that order.
    expect(tree.merges.map((merge) => [merge.branchId, merge.intoId, merge.mode])).toEqual([
      [strict?.id, schema?.id, 'replace'],
      [schema?.id, main?.id, 'append']
    ])
    // The merged messages follow a marker in the target: main's 7 own messages, then A's 5.
    const mainMessages = await transcript(call, main?.id ?? '')
    expect(mainMessages[8]).toMatchObject({ role: 'system' })
    expect(mainMessages[8]?.content).toMatch(/^Merged branch "zod-schema" \(append\): its 5 messages since the fork/)
    expect(mainMessages.slice(9).map((message) => message.content)).toEqual((await transcript(call, schema?.id ?? '')).slice(6).filter((message) => message.role !== 'system').map((message) => message.content))
    // The nested fork shares its parent's prefix (copied once, not duplicated) and adds its own 2.
    const strictMessages = await transcript(call, strict?.id ?? '')
    expect(strictMessages.slice(0, 9).map((message) => message.content)).toEqual((await transcript(call, schema?.id ?? '')).slice(0, 9).map((message) => message.content))
    expect(countRoles(strictMessages)).toEqual({ system: 1, user: 3, assistant: 3, tool_call: 2, tool_result: 2 })

    // Code Buddy renames main: main is written again, its branches with it, and the merges are recorded again, once.
    const mainFile = join(home, 'branches/session_mmnjibok_k3v9qa/main.json')
    writeFileSync(mainFile, readFileSync(mainFile, 'utf8').replace('"name": "Main conversation"', '"name": "Trunk"'))
    const before = folderListing(home)
    const again = await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
    expect(again).toMatchObject({ files: 1, sessions: 4, skipped: [] })
    const retree = await call('sessions.tree', { workspaceId: workspace.id })
    expect(retree.nodes).toHaveLength(9)
    const renode = (title: string) => retree.nodes.find((candidate) => candidate.title === title)
    expect(renode('zod-strict')?.parentId).toBe(renode('zod-schema')?.id)
    expect(retree.merges.map((merge) => [merge.branchId, merge.intoId, merge.mode])).toEqual([
      [renode('zod-strict')?.id, renode('zod-schema')?.id, 'replace'],
      [renode('zod-schema')?.id, renode(`Trunk — ${ZOD}`)?.id, 'append']
    ])
    expect(folderListing(home)).toEqual(before)
  })

  // The accounting rule (issue 40): Code Buddy keeps no file content. Each write that ran is
  // reported (a session file keeps not even the call's input); each shell command is counted.
  // Copied messages (a branch's prefix, a merged branch) are the calls of the session they came from.
  it('accounts for every file-changing call of the sessions and branches: reported, shell commands counted', async () => {
    const { call, workspace } = await openCopy('home')
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
    const noInput = "file change not captured (Code Buddy's session file keeps the tool's name only, not its input or the file's content): str_replace_editor call"
    expect(report.changesNotJournaled.map((line) => line.reason).sort()).toEqual([
      "file change not captured (Code Buddy keeps the replaced text only, not the file's content): src/config.ts",
      noInput,
      noInput
    ])
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, source: 'code-buddy' })).items
    const zod = sessions.find((session) => session.title === ZOD)
    const detail = await call('sessions.get', { sessionId: zod?.id ?? '' })
    // Both bash runs of turn 1 (turn 2 is "Great, thanks."): the failing one and the one Code Buddy rewrote into its result.
    expect(detail.checkpoints.map((checkpoint) => checkpoint.uncapturedCommands)).toEqual([2, 0])
  })

  it('imports an exported session (SessionPlayer loads these back) with its checkpoints as notes, not exportToJson copies', async () => {
    const project = join(tempDir(), 'ledger-api')
    mkdirSync(project)
    cpSync(join(FIXTURE, 'exports'), project, { recursive: true, preserveTimestamps: true })
    const before = folderListing(project)
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: project })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, toolCalls: 3, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: workspace.id })).items
    expect(session).toMatchObject({ source: 'code-buddy', title: `${ZOD} (export)`, turnCount: 2, model: 'grok-code-fast-1' })
    const messages = await transcript(call, session?.id ?? '')
    // 8 messages: system 1, user 2, assistant 4 (3 with a tool call and its attached result), tool 1; 3 checkpoints.
    expect(countRoles(messages)).toEqual({ system: 4, user: 2, assistant: 4, tool_call: 3, tool_result: 4 })
    expect(messages.filter((message) => message.content.startsWith('Checkpoint: ')).map((message) => [message.content, message.seq])).toEqual([
      ['Checkpoint: Initial Q&A', 2],
      ['Checkpoint: Schema in place', 9],
      ['Checkpoint: Tests green', 15]
    ])
    const bash = messages.find((message) => message.role === 'tool_call' && message.toolName === 'bash')
    expect(bash?.toolInput).toEqual({ command: 'npm test' })
    expect(messages.find((message) => message.role === 'tool_result' && message.toolCallId === bash?.toolCallId)).toMatchObject({ isError: true })
    // The accounting rule: the edit is reported (its file's earlier content is unknown); both bash runs of
    // turn 1 counted: `npm test`, whose attached result failed, and the one the `tool` message answers.
    expect(report.changesNotJournaled.map((line) => line.reason)).toEqual(["file change not captured (Code Buddy keeps the replaced text only, not the file's content): src/config.ts"])
    expect((await call('sessions.get', { sessionId: session?.id ?? '' })).checkpoints.map((checkpoint) => checkpoint.uncapturedCommands)).toEqual([2, 0])
    expect(folderListing(project)).toEqual(before)
  })

  // README § Malformed variants: what each must report; the rest imports, nothing throws or is written.
  const variants: { name: string; sessions: number; problems: RegExp[]; check?: (call: ContractCall, workspaceId: number) => Promise<void> }[] = [
    { name: 'truncated-session-json', sessions: 1, problems: [/session_mmq7rvk0_cc22dd\.json: not valid JSON/] },
    { name: 'empty-session-file', sessions: 1, problems: [/session_mmqc2740_gg44hh\.json: empty file/] },
    {
      name: 'invalid-session-shape',
      sessions: 1,
      problems: [/kk66ll\.json: "messages" is an object/, /mm77nn\.json: "createdAt" is a string "last Tuesday"/, /oo88pp\.json: the file holds an array/]
    },
    {
      name: 'unknown-message-type',
      sessions: 1,
      problems: [/message 3: unknown message type "context_compaction"; kept as a note/],
      check: async (call, workspaceId) => {
        const [session] = (await call('sessions.list', { workspaceId })).items
        const messages = await transcript(call, session?.id ?? '')
        expect(messages).toHaveLength(5)
        expect(messages[3]).toMatchObject({ role: 'system', content: 'Code Buddy message of an unknown type (context_compaction):\nCompacted 14 earlier messages into a summary.' })
      }
    },
    {
      name: 'wrong-field-types',
      sessions: 1,
      problems: [/"metadata\.tags" is a string/, /"metadata\.toolCallCount" is a string "3"/, /message 1: "toolCallName" is a number 42/, /message 2: "timestamp" is a number/, /message 2: "toolCallSuccess" is a string "true"/, /message 3: "content" is null/, /message 4: "taskState" is a string/],
      check: async (call, workspaceId) => {
        const [session] = (await call('sessions.list', { workspaceId })).items
        const messages = await transcript(call, session?.id ?? '')
        expect(messages.map((message) => message.role)).toEqual(['user', 'tool_call', 'tool_result', 'assistant', 'system'])
        // "true" is not success: the result is not marked failed, nor taken as a success it did not state.
        expect(messages[2]).toMatchObject({ isError: false, toolName: 'bash' })
        expect(messages[1]).toMatchObject({ toolName: 'unknown tool' })
        expect(messages[4]?.content).toBe('Plan progress: Task state checkpoint')
      }
    },
    {
      name: 'branch-missing-parent',
      sessions: 3,
      problems: [/branch_mmqt8rmo_or9ph1\.json: its parent branch "branch_mmqt84hc_go4ne0" does not exist; shown as a root/],
      check: async (call, workspaceId) => {
        const tree = await call('sessions.tree', { workspaceId })
        expect(tree.nodes.find((node) => node.title === 'orphaned-fork')).toMatchObject({ kind: 'main', parentId: null })
      }
    },
    {
      name: 'branch-bad-fork-index',
      sessions: 5,
      problems: [/fork index 40 is not a position in "main"/, /fork index -1 /, /fork index 1\.5 /],
      check: async (call, workspaceId) => {
        const tree = await call('sessions.tree', { workspaceId })
        expect(tree.nodes.every((node) => node.parentId === null)).toBe(true)
      }
    },
    { name: 'branch-cycle', sessions: 4, problems: [/form a cycle \(branch_mmr1sc5s_cyc0x1 → branch_mmr1sjvk_cyc0y2 → branch_mmr1sc5s_cyc0x1\)/] },
    { name: 'broken-branch-files', sessions: 2, problems: [/branch_mmr62nps_cut001\.json: not valid JSON/, /branch_mmr62vfk_nom002\.json: "messages" is missing/] },
    {
      name: 'branches-without-session',
      sessions: 3,
      problems: [/branches\/session_mmracrk0_go5ne5\/: there is no session/],
      check: async (call, workspaceId) => {
        const tree = await call('sessions.tree', { workspaceId })
        const main = tree.nodes.find((node) => node.title === 'Main conversation — deleted session session_mmracrk0_go5ne5')
        expect(tree.nodes.find((node) => node.title === 'fork-of-deleted')).toMatchObject({ kind: 'branch', parentId: main?.id, forkSeq: 2 })
      }
    },
    { name: 'odd-lock-files', sessions: 2, problems: [] }
  ]
  for (const variant of variants) {
    it(`malformed: ${variant.name}`, async () => {
      const { home, call, workspace } = await openCopy(join('malformed', variant.name))
      const before = folderListing(home)
      const report = await call('imports.run', { workspaceId: workspace.id, sources: ['code-buddy'] })
      expect(report.sessions).toBe(variant.sessions)
      expect(report.skipped).toHaveLength(variant.problems.length)
      for (const problem of variant.problems) expect(report.skipped.map((skipped) => skipped.reason)).toContainEqual(expect.stringMatching(problem))
      await variant.check?.(call, workspace.id)
      expect(folderListing(home)).toEqual(before)
    })
  }
})
