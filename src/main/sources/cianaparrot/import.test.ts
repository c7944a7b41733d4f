import { cpSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { readCianaParrotState } from './agent-state'
import { deploymentAt } from './deployment'
import { folderListing } from '../testing/folder-listing'

const DEPLOYMENT = join(FIXTURES, 'cianaparrot/deployment')
const MALFORMED = join(FIXTURES, 'cianaparrot/malformed')


describe('importing a CianaParrot deployment', () => {
  const { tempDir, runtime } = importTestbed('retrace-cianaparrot-')

  function copyOf(folder: string): string {
    const root = join(tempDir(), 'deployment')
    cpSync(folder, root, { recursive: true })
    return root
  }

  it('threads as sessions: resets linked as successors, time travel as a branch, scheduler runs named by their task, the richer session log merged', async () => {
    const root = copyOf(DEPLOYMENT)
    const before = folderListing(root)
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id })
    expect(report.skipped).toEqual([])
    // 6 threads, and the discord thread's time travel as a 7th session.
    expect(report.sessions).toBe(7)
    const tree = await call('sessions.tree', { workspaceId: workspace.id })
    expect(tree.nodes.every((node) => node.source === 'cianaparrot')).toBe(true)
    const bySource = new Map(tree.nodes.map((node) => [node.id, node]))
    const successors = tree.nodes.filter((node) => node.predecessorId).map((node) => [bySource.get(node.predecessorId ?? '')?.title, node.title])
    expect(successors).toHaveLength(2)
    expect(tree.nodes.filter((node) => node.kind === 'branch')).toHaveLength(1)
    const scheduled = tree.nodes.filter((node) => node.title.startsWith('Scheduled: ')).map((node) => node.title).sort()
    expect(scheduled).toEqual(['Scheduled: Remind Luca to get up and stretch', 'Scheduled: Send Luca a weather briefing for Lisbon for the week ahead'])

    // telegram_12345_s1: 2 prompts in the checkpoints, 4 in its log (the database lost the last two turns).
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, limit: 100 })).items
    const turns = sessions.map((session) => session.turnCount).sort((a, b) => a - b)
    expect(turns).toContain(4)
    let toolCalls = 0
    for (const session of sessions.filter((s) => s.kind !== 'branch')) {
      const page = await call('transcript.page', { sessionId: session.id, limit: 500 })
      toolCalls += page.items.filter((message) => message.role === 'tool_call').length
    }
    expect(toolCalls).toBe(13)
    expect(folderListing(root)).toEqual(before)
  })

  // The accounting rule (issue 40): the checkpoints keep the calls' arguments, not the files. The
  // file tools work in workspace/ (FilesystemBackend, virtual paths from "/"): edit_file's file is
  // reported, write_file's content journaled only where the session wrote the file before. Each
  // `execute` counts as a shell command. The time-travel branch's copied prefix is its parent's.
  it('accounts for every file-changing call: the edit and both writes reported once, execute counted', async () => {
    const root = copyOf(DEPLOYMENT)
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id })
    expect(report.changesNotJournaled.map((line) => line.reason).sort()).toEqual([
      "file change not captured (CianaParrot keeps the replaced text only, not the file's content): workspace/MEMORY.md",
      'file change not captured (its earlier content is unknown): workspace/notes/math.txt',
      'file change not captured (its earlier content is unknown): workspace/notes/percentages.md'
    ])
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, limit: 100 })).items
    let commands = 0
    for (const session of sessions) commands += (await call('sessions.get', { sessionId: session.id })).checkpoints.reduce((sum, checkpoint) => sum + checkpoint.uncapturedCommands, 0)
    expect(commands).toBe(1)
  })

  it('the agent state: memory files, counters in sync with the threads, scheduled tasks with their next runs, Claude Code user states', () => {
    const deployment = deploymentAt(DEPLOYMENT)
    if (!deployment) throw new Error('the fixture is not recognised as a deployment')
    const threads = ['telegram_12345', 'telegram_12345_s1', 'telegram_12345_s2', 'discord_1187654321098765432', 'scheduler_a1b2c3d4', 'scheduler_c3d4e5f6']
    const state = readCianaParrotState(deployment, threads, new Date('2026-03-02T12:00:00Z'))
    expect(state.problems).toEqual([])
    expect(state.memoryFiles.map((file) => [file.name, (file.text ?? '').length > 0])).toEqual([['IDENTITY.md', true], ['AGENT.md', true], ['MEMORY.md', true]])
    expect(state.sessionCounters).toEqual([{ baseKey: 'telegram_12345', counter: 2, highestInCheckpoints: 2, behind: false }])
    expect(state.scheduledTasks.map((task) => [task.type, task.nextRun])).toEqual([
      ['cron', '2026-03-09T08:00:00.000Z'],
      ['interval', '2026-03-02T12:30:58.000Z'],
      ['once', '2026-03-05T09:00:00.000Z']
    ])
    expect(state.claudeCodeUsers).toHaveLength(2)
    // A counter behind the checkpoints is flagged (the router would raise it at start-up).
    expect(readCianaParrotState(deployment, [...threads, 'telegram_12345_s5']).sessionCounters[0]).toMatchObject({ highestInCheckpoints: 5, behind: true })
  })

  it('workspaces.agentState shows the deployment\'s tasks, counters, user states and memory files', async () => {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: copyOf(DEPLOYMENT) })
    const state = await call('workspaces.agentState', { workspaceId: workspace.id })
    expect(state.sources.map((source) => source.source)).toEqual(['cianaparrot'])
    const [parrot] = state.sources
    expect(parrot?.problems).toEqual([])
    expect(parrot?.sections.map((section) => section.title)).toEqual(['Scheduled tasks', 'Session counters (/new resets per chat)', 'Claude Code user states', 'workspace/IDENTITY.md', 'workspace/AGENT.md', 'workspace/MEMORY.md'])
    expect(parrot?.sections[0]?.rows.map((row) => row[1])).toEqual(['cron', 'interval', 'once'])
    expect(parrot?.sections[3]?.text).toBeTruthy()
    // A folder with no agent state has none.
    const plain = await call('workspaces.open', { path: tempDir() })
    expect(await call('workspaces.agentState', { workspaceId: plain.id })).toEqual({ sources: [] })
  })

  it.each([
    ['pickle-checkpoint', /pickle/, 2],
    ['unknown-ext-type', /extension types never seen \(42\)/, 1],
    ['missing-writes-table', null, 1],
    ['unknown-schema', /unknown schema/, 0],
    ['wal-sidecar', null, 1],
    ['corrupt-scheduled-tasks', /scheduled_tasks\.json is not valid JSON/, 1],
    ['truncated-session-log', /line 4: cut off/, 1]
  ] as const)('malformed: %s is reported, the rest imported, nothing written', async (variant, problem, sessions) => {
    const root = copyOf(join(MALFORMED, variant))
    const before = folderListing(root)
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: workspace.id })
    if (problem) expect(report.skipped.map((skip) => skip.reason).join('\n')).toMatch(problem)
    else expect(report.skipped).toEqual([])
    expect(report.sessions).toBe(sessions)
    expect(folderListing(root)).toEqual(before)
  })

  it('wal-sidecar: the checkpoints only in the WAL are read', async () => {
    const root = copyOf(join(MALFORMED, 'wal-sidecar'))
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: root })
    await call('imports.run', { workspaceId: workspace.id })
    const [session] = (await call('sessions.list', { workspaceId: workspace.id })).items
    expect(session?.messageCount).toBe(4)
  })
})
