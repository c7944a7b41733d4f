import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../../shared/contract'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'
import { readHeadlessMemory } from './memory'
import { copyHome, HEADLESS_FIXTURE, HEADLESS_HOME, headlessExpected, listing } from './testing/headless-fixture'

const expected = headlessExpected()

describe('importing a headless agent home (fixtures/headless-agent)', () => {
  const { tempDir, runtime } = importTestbed('retrace-headless-')

  async function importFolder(home: string) {
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: home })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    return { call, workspace, report, sessions }
  }

  async function transcript(call: ContractCall, sessionId: string): Promise<Message[]> {
    return (await call('transcript.page', { sessionId, limit: 500 })).items
  }

  it('makes each session a session and each goal a turn, with the counts of expected.json', async () => {
    const home = copyHome(HEADLESS_HOME, tempDir())
    const before = listing(home)
    const { call, workspace, report, sessions } = await importFolder(home)
    expect(report).toMatchObject({ files: 1, sessions: expected.totals.sessions, toolCalls: expected.totals.tool_calls, skipped: [] })
    expect(sessions).toHaveLength(4)
    expect(sessions.every((session) => session.source === 'headless-agent')).toBe(true)
    expect(sessions.reduce((sum, session) => sum + session.turnCount, 0)).toBe(expected.totals.goals)

    const totals = { results: 0, errors: 0, pre: 0, post: 0, supervision: 0 }
    for (const want of expected.sessions) {
      const session = sessions.find((s) => s.title.startsWith(`${want.workflow_name} · `))
      expect(session, want.workflow_name).toBeDefined()
      if (!session) continue
      // Title: workflow, start time, and what is unusual (not completed, past retention).
      expect(session.title.includes(' · past retention'), session.title).toBe(want.past_retention)
      expect(session.title.endsWith(' · failed') || session.title.endsWith(' · running')).toBe(want.status === 'failed' || want.status === 'running')
      expect(session.turnCount).toBe(want.goals)
      const items = await transcript(call, session.id)
      const of = (role: string) => items.filter((m) => m.role === role)
      // Each turn opens with one user message naming its goal, in order.
      expect(of('user').map((m) => [m.turn, m.content.split('\n')[0]])).toEqual(want.goal_ids.map((goal, i) => [i + 1, `Goal: ${goal}`]))
      expect(of('tool_call')).toHaveLength(want.tool_calls)
      expect(of('tool_result')).toHaveLength(want.tool_results)
      expect(of('tool_result').filter((m) => m.isError)).toHaveLength(want.tool_errors)
      // Results are paired with their calls; the open call of the running session has none.
      const answered = new Set(of('tool_result').map((m) => m.toolCallId))
      expect(of('tool_call').filter((m) => !answered.has(m.toolCallId))).toHaveLength(want.tool_calls_without_result)
      for (const call of of('tool_call')) expect(call.toolInput).toEqual(expect.any(Object))
      // Checkpoint contents on the turn of their goal.
      const notes = (prefix: string) => of('system').filter((m) => m.content.startsWith(prefix))
      for (const [prefix, count, phase] of [['Pre-checkpoint (', want.pre_files, 'pre'], ['Post-checkpoint (', want.post_files, 'post'], ['Supervision (', want.supervision_files, 'supervision']] as const) {
        expect(notes(prefix), `${want.workflow_name} ${phase}`).toHaveLength(count)
        for (const note of notes(prefix)) expect(note.content).toContain(`(${want.goal_ids[note.turn - 1]}.${phase}.json)`)
      }
      totals.results += want.tool_results
      totals.errors += of('tool_result').filter((m) => m.isError).length
      totals.pre += notes('Pre-checkpoint (').length
      totals.post += notes('Post-checkpoint (').length
      totals.supervision += notes('Supervision (').length
      // The session's outcome closes the transcript.
      const last = items.at(-1)
      expect(last?.role).toBe('system')
      expect(last?.content).toMatch({ completed: /^Workflow completed\.\nResult:\n/, failed: /^Workflow failed\.\nError: supervisor verdict PAUSE on goal apply_upgrade/, running: /^Still running when this was read .*1 tool call has no result yet/ }[want.status] ?? /./)
      if (want.past_retention) expect(items[0]?.content).toMatch(/Past retention: its checkpoint folder \(checkpoints\/c41d7e9a0b2f4c8d93e6a5b1f7d20c64\/\) is gone/)
    }
    expect(totals).toEqual({ results: expected.totals.tool_results, errors: expected.totals.tool_errors, pre: 6, post: 5, supervision: expected.totals.supervision_files })
    expect(totals.pre + totals.post + totals.supervision).toBe(expected.totals.checkpoint_files)

    // release-notes: the REORIENT verdict and its correction on classify_changes (turn 2), the post file of the retry.
    const release = sessions.find((s) => s.title.startsWith('release-notes'))
    const items = await transcript(call, release?.id ?? '')
    const turn2 = items.filter((m) => m.turn === 2 && m.role === 'system').map((m) => m.content)
    expect(turn2).toContainEqual(expect.stringMatching(/^Supervision \(classify_changes\.supervision\.json\): REORIENT\nReasoning: .+\nCorrection: Classify from the code and docs only/))
    expect(turn2).toContainEqual(expect.stringMatching(/^Supervisor correction: /))
    expect(turn2).toContainEqual(expect.stringMatching(/^Post-checkpoint \(classify_changes\.post\.json\)\nTools used: web_fetch, grep, read\nSelf-assessment: commitment met: yes, scope changed: no/))
    expect(turn2).toContainEqual('post checkpoint saved: classify_changes.post.json (written again later: the file holds the later contents)')
    const pre = items.find((m) => m.content.startsWith('Pre-checkpoint (collect_changes.pre.json)'))?.content
    expect(pre).toMatch(/\nCommitment: List the merged pull requests.*\nIn scope: git log, CHANGELOG.md, agent memory\nOut of scope: writing files, network\nApproach: .+\nPredictions:\n- .+/s)

    // dependency-upgrade: the failing test run, its arguments, error and duration.
    const upgrade = await transcript(call, sessions.find((s) => s.title.startsWith('dependency-upgrade'))?.id ?? '')
    const failing = upgrade.find((m) => m.role === 'tool_result' && m.isError)
    expect(failing?.content).toMatch(/^Error: exit status 1\n\n\.\.\.\.\.F\.\.F[\s\S]*\n\n\(took 15\.2 s\)$/)
    expect(upgrade.find((m) => m.toolCallId === failing?.toolCallId && m.role === 'tool_call')).toMatchObject({ toolName: 'bash', toolInput: { command: 'npm test -- --reporter=dot' } })
    expect(upgrade.filter((m) => m.content.startsWith('Supervision (apply_upgrade.supervision.json): PAUSE'))).toHaveLength(1)

    // Read-only, and nothing new means nothing imported again.
    expect(listing(home)).toEqual(before)
    expect(await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })).toMatchObject({ files: 0, sessions: 0 })
  })

  it('re-imports only the session that changed when the agent goes on', async () => {
    const home = copyHome(HEADLESS_HOME, tempDir())
    const { call, workspace } = await importFolder(home)
    const db = new Database(join(home, 'sessions.db'))
    db.prepare(
      "INSERT INTO events (session_id, type, goal, content, tool, args, error, duration_ms, timestamp) VALUES ('e7a25b90c3d14f6a8e2b9c07d5f1a3b6', 'tool_result', 'triage', 'Balance goes negative after a second reversal.', 'bash', 'null', '', 880, '2026-03-16 11:40:38.1-04:00')"
    ).run()
    db.close()
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, skipped: [] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    expect(sessions).toHaveLength(4)
    const triage = await transcript(call, sessions.find((s) => s.title.startsWith('triage-issues'))?.id ?? '')
    expect(triage.filter((m) => m.role === 'tool_result')).toHaveLength(3)
    expect(triage.at(-1)?.content).not.toMatch(/no result yet/)
  })

  it('does not take a folder with only a sessions.db of its own for an agent home', async () => {
    const project = join(tempDir(), 'project')
    mkdirSync(project)
    copyFileSync(join(HEADLESS_HOME, 'sessions.db'), join(project, 'sessions.db'))
    const { report } = await importFolder(project)
    expect(report).toMatchObject({ files: 0, sessions: 0 })
  })

  // The accounting rule (issue 40): the agent keeps no file content, so each `write` / `edit` that
  // succeeded is reported as not captured (or journaled, when the session's own write gave the
  // earlier content); each `bash` that ran counts as a shell command whose changes are not captured.
  it('accounts for every file-changing call: writes and edits reported, shell commands counted', async () => {
    const home = copyHome(HEADLESS_HOME, tempDir())
    const { call, report, sessions } = await importFolder(home)
    expect(report.changesNotJournaled.map((line) => line.reason)).toEqual([
      expect.stringMatching(/^file change not captured \(the headless agent records the replaced text only, not the file's content\): package\.json$/) as string,
      expect.stringMatching(/^file change not captured \(its earlier content is unknown\): .*RELEASE_NOTES.*\.md$/) as string
    ])
    const uncaptured = async (title: string) => {
      const session = sessions.find((s) => s.title.startsWith(title))
      const detail = await call('sessions.get', { sessionId: session?.id ?? '' })
      return detail.checkpoints.map((checkpoint) => checkpoint.uncapturedCommands)
    }
    // dependency-upgrade: npm outdated (audit_deps), npm install and npm test (apply_upgrade, the failing one too).
    expect(await uncaptured('dependency-upgrade')).toEqual([1, 2])
    // release-notes: `git log` only reads; triage-issues: two `gh` commands, the second still running.
    expect(await uncaptured('release-notes')).toEqual([0, 0, 0])
    expect(await uncaptured('triage-issues')).toEqual([2])
  })
})

/** What each malformed variant must report (fixtures/headless-agent/README.md › Malformed variants). */
const VARIANTS: Record<string, { problems: RegExp[]; check?: (items: Message[][], home: string) => void }> = {
  'missing-events-table': { problems: [/^sessions\.db has no events table/] },
  'invalid-args-json': {
    problems: [/event 110 \(tool_call ls\) has arguments that are not valid JSON/],
    check: ([items]) => expect(items?.filter((m) => m.role === 'tool_call').map((m) => m.toolInput)).toEqual(['{"path": ".'])
  },
  'extra-columns': {
    problems: [],
    check: ([items]) => expect(items?.filter((m) => m.role === 'tool_call')).toHaveLength(1)
  },
  'unknown-event-type': {
    problems: [/event 312 has the unknown type "llm_stream_chunk": shown as a note$/],
    check: ([items]) => {
      expect(items?.filter((m) => m.content.startsWith('[llm_stream_chunk]'))).toHaveLength(1)
      expect(items?.filter((m) => m.role === 'tool_result')).toHaveLength(1)
    }
  },
  'checkpoint-wrong-types': {
    problems: [/greet\.post\.json: fields not of the documented type were left out: timestamp .*tools_used .*output .*commitment_met .*scope_changed .*concerns/, /greet\.pre\.json: fields not of the documented type were left out: scope .*timestamp .*interpretation .*approach .*predictions .*assumptions/, /greet\.supervision\.json is not valid JSON/],
    check: ([items]) => {
      // No invented values: only what has the documented type is shown.
      expect(items?.find((m) => m.content.startsWith('Pre-checkpoint'))?.content).toBe('Pre-checkpoint (greet.pre.json)\nGoal: Greet world and list the workspace')
      expect(items?.find((m) => m.content.startsWith('Post-checkpoint'))?.content).toBe('Post-checkpoint (greet.post.json)')
      expect(items?.filter((m) => m.content.startsWith('Supervision ('))).toHaveLength(0)
      expect(items?.filter((m) => m.role === 'tool_call')).toHaveLength(1)
    }
  },
  'not-a-database': {
    problems: [/^sessions\.db cannot be read: not a SQLite database$/],
    check: (_items, home) => expect(readHeadlessMemory(home)).toEqual({ entries: [{ key: 'user.name', value: 'Sam' }], problems: [] })
  },
  'orphan-events': { problems: [/^19 events \(ids 650–668\) belong to session 0a11c0de0{20}dead, which has no row in the sessions table/] },
  'status-and-datetime-variants': {
    problems: [/a082: status "paused" is not one the agent documents/, /a083: created_at "not a date" is not a time: its start is taken from its first event/]
  },
  'wal-not-checkpointed': { problems: [] },
  'corrupt-memory': {
    problems: [/^memory\.json is not valid JSON/],
    check: (_items, home) => expect(readHeadlessMemory(home).entries).toEqual([])
  }
}

describe('malformed headless agent homes: reported, never thrown, never written to', () => {
  const { tempDir, runtime } = importTestbed('retrace-headless-bad-')

  it('covers every variant of the fixture', () => {
    expect(Object.keys(VARIANTS).sort()).toEqual(expected.malformed.map((variant) => variant.name).sort())
  })

  for (const variant of expected.malformed) {
    it(`${variant.name}: ${variant.sessions} sessions, problems as the README says`, async () => {
      const spec = VARIANTS[variant.name]
      const home = copyHome(join(HEADLESS_FIXTURE, 'malformed', variant.name), tempDir())
      const before = listing(home)
      const call = contractCaller(runtime({}))
      const workspace = await call('workspaces.open', { path: home })
      const report = await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })
      expect(report.sessions).toBe(variant.sessions)
      expect(report.skipped.map((s) => s.reason)).toEqual(spec?.problems.map((problem) => expect.stringMatching(problem) as unknown))
      const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
      expect(sessions).toHaveLength(variant.sessions)
      const items = await Promise.all(sessions.map(async (s) => (await call('transcript.page', { sessionId: s.id, limit: 500 })).items))
      spec?.check?.(items, home)
      // No -shm, no journal, nothing touched beside the database.
      expect(listing(home)).toEqual(before)
    })
  }

  it('status-and-datetime-variants: `complete` is completed, both other time encodings are read', async () => {
    const home = copyHome(join(HEADLESS_FIXTURE, 'malformed', 'status-and-datetime-variants'), tempDir())
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: home })
    await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    const byStart = Object.fromEntries(sessions.map((s) => [s.title, new Date(s.createdAt).toISOString()]))
    expect(byStart).toEqual({
      'hello · 2026-03-12 21:00 UTC': '2026-03-12T21:00:00.000Z',
      'hello · 2026-03-12 21:00 UTC · status paused': '2026-03-12T21:00:00.000Z',
      // `not a date`: the first event's time (its own wall clock in the title).
      'hello · 2026-03-12 19:00': '2026-03-12T23:00:00.040Z'
    })
  })

  it('wal-not-checkpointed: the session only in the -wal file is imported', async () => {
    const home = copyHome(join(HEADLESS_FIXTURE, 'malformed', 'wal-not-checkpointed'), tempDir())
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: home })
    await call('imports.run', { workspaceId: workspace.id, sources: ['headless-agent'] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id })).items
    expect(sessions.map((s) => s.turnCount)).toEqual([1, 1])
  })
})
