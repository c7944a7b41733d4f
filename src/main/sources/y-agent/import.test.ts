import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { MethodOutput } from '../../../shared/contract'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed, type ContractCall } from '../testing/import-testbed'
import { folderListing } from '../testing/folder-listing'

const FIXTURE = join(FIXTURES, 'y-agent')
const SUMMARY = JSON.parse(readFileSync(join(FIXTURE, 'data/transcripts/deae4050-ea2c-4416-aae6-f050ab965238.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { content: string }

type Sessions = MethodOutput<'sessions.list'>['items']
type Session = Sessions[number]


describe('importing a y-agent data folder', () => {
  const { tempDir, runtime } = importTestbed('retrace-y-agent-')

  /** A temporary copy of a fixture folder, opened as a workspace (the data folder itself). */
  async function imported(folder: string): Promise<{ call: ContractCall; dir: string; before: string[]; report: MethodOutput<'imports.run'>; sessions: Sessions; byTitle: (title: string) => Session }> {
    const dir = join(tempDir(), 'data')
    cpSync(join(FIXTURE, folder), dir, { recursive: true })
    const before = folderListing(dir)
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: dir })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['y-agent'] })
    const sessions = (await call('sessions.list', { workspaceId: workspace.id, limit: 100 })).items
    const byTitle = (title: string) => {
      const found = sessions.find((session) => session.title === title)
      if (!found) throw new Error(`no session "${title}" among ${sessions.map((session) => session.title).join(', ')}`)
      return found
    }
    return { call, dir, before, report, sessions, byTitle }
  }

  const transcript = async (call: ContractCall, session: Session, view: 'display' | 'context' = 'display') => (await call('transcript.page', { sessionId: session.id, transcript: view, limit: 500 })).items

  it('data/: nine sessions of all six types in their tree, nothing written in the data folder', async () => {
    const { call, dir, before, report, sessions } = await imported('data')
    // The two git_ref snapshots live in the project's repository, which the fixture does not have.
    expect(report.skipped.map((skip) => skip.reason)).toEqual([
      expect.stringMatching(/^journal entry 2ff6fa62.* \(write \/home\/dev\/weatherly\/README\.md, git_ref snapshot\): its original content is in git commit bde3ba0f/) as string,
      expect.stringMatching(/^journal entry 6a2fffa9.* \(move \/home\/dev\/weatherly\/docs\/notes\.md → \/home\/dev\/weatherly\/docs\/RETRY\.md, git_ref snapshot\)/) as string
    ])
    expect(report).toMatchObject({ files: 1, sessions: 9, fileChanges: 9 })
    expect(sessions).toHaveLength(9)
    const tree = await call('sessions.tree', { workspaceId: sessions[0]?.workspaceId ?? 0 })
    const node = (title: string) => tree.nodes.find((candidate) => candidate.title === title)
    const parentTitle = (title: string) => tree.nodes.find((candidate) => candidate.id === node(title)?.parentId)?.title ?? null
    // main 1 + canonical 1 → main; branch 2; child 3 (one explicit, two channel sessions); sub_agent 1; ephemeral 1.
    expect(tree.nodes.map((candidate) => [candidate.title, candidate.kind, parentTitle(candidate.title)]).sort()).toEqual(
      [
        ['Add retry with backoff to the HTTP client', 'main', null],
        ['Circuit breaker instead of retries', 'branch', 'Add retry with backoff to the HTTP client'],
        ['Circuit breaker: threshold 5', 'branch', 'Circuit breaker instead of retries'],
        ['Plan the integration tests', 'child', 'Add retry with backoff to the HTTP client'],
        ['/compact (19 messages)', 'ephemeral', 'Add retry with backoff to the HTTP client'],
        ['Review src/http.rs', 'sub-agent', 'Add retry with backoff to the HTTP client'],
        ['weatherly (all channels)', 'main', null],
        ['Is the retry work merged?', 'child', 'weatherly (all channels)'],
        ['Which files changed today?', 'child', 'weatherly (all channels)']
      ].sort()
    )
    // Depths as session_metadata has them: 2 at depth 0, 6 at depth 1, branch2 at depth 2.
    const depth = (title: string): number => (parentTitle(title) === null ? 0 : 1 + depth(parentTitle(title) ?? ''))
    expect(tree.nodes.reduce<Record<number, number>>((counts, candidate) => ({ ...counts, [depth(candidate.title)]: (counts[depth(candidate.title)] ?? 0) + 1 }), {})).toEqual({ 0: 2, 1: 6, 2: 1 })
    // The sub-agent hangs off the delegate_task call that started it.
    const main = transcript(call, sessions.find((session) => session.title.startsWith('Add retry')) as Session)
    const delegate = (await main).find((message) => message.role === 'tool_call' && message.toolName === 'delegate_task')
    expect(node('Review src/http.rs')?.forkSeq).toBe(delegate?.seq)
    expect(folderListing(dir)).toEqual(before)
    // Nothing changed: nothing is read again.
    expect(await call('imports.run', { workspaceId: sessions[0]?.workspaceId ?? 0, sources: ['y-agent'] })).toMatchObject({ files: 0, sessions: 0 })
  })

  it('data/: both transcripts, the compaction, the forks and the undone turn', async () => {
    const { call, byTitle } = await imported('data')
    const main = byTitle('Add retry with backoff to the HTTP client')
    const display = await transcript(call, main)
    // 26 display lines (9 tool calls beside their assistant text) + the undone turn 4 rebuilt
    // from its trace (prompt, answer, 2 calls, 2 results, answer, rollback note) + the summary.
    expect(display).toHaveLength(26 + 9 + 8 + 1)
    expect(display.filter((message) => message.role === 'user')).toHaveLength(7)
    expect(main.turnCount).toBe(7)
    // The context view starts at the summary, before the two messages /compact kept: 8 context lines.
    const context = await transcript(call, main, 'context')
    expect(context.map((message) => message.role)).toEqual(['compaction_summary', 'user', 'assistant', 'user', 'assistant', 'tool_call', 'tool_call', 'tool_result', 'tool_result', 'assistant'])
    expect(context[0]?.content).toBe(SUMMARY.content)
    expect(context[1]?.content).toBe('Summarize what we changed so far.')
    // Turn 4 was undone: rebuilt from its trace, its checkpoint invalidated, the rollback noted.
    const detail = await call('sessions.get', { sessionId: main.id })
    expect(detail.checkpoints.map((checkpoint) => [checkpoint.turn, checkpoint.invalidated])).toEqual([
      [1, false], [2, false], [3, false], [4, true], [5, false], [6, false], [7, false]
    ])
    const turn4 = display.filter((message) => message.turn === 4)
    expect(turn4[0]).toMatchObject({ role: 'user', content: 'Bump the crate to 0.4.0 and start a CHANGELOG.' })
    expect(turn4.at(-1)?.role).toBe('system')
    expect(turn4.at(-1)?.content).toMatch(/rolled this turn back.*CHANGELOG\.md was deleted again.*Conflict on Cargo\.toml: modified externally.*the turn wrote ac94bedb…, the file now is 968d53f6…/)
    // Forks: branch1 shares main's turns 1-2 (9 lines, 12 records), branch2 all 11 of branch1's lines.
    const branch1 = byTitle('Circuit breaker instead of retries')
    const branch2 = byTitle('Circuit breaker: threshold 5')
    const b1 = await transcript(call, branch1)
    const b2 = await transcript(call, branch2)
    expect(b1.slice(0, 12).map((message) => message.content)).toEqual(display.slice(0, 12).map((message) => message.content))
    expect(b1).toHaveLength(12 + 2)
    expect(b2.slice(0, 14).map((message) => message.content)).toEqual(b1.map((message) => message.content))
    // branch2's only turn failed at the provider: said where the answer would be.
    expect(b2.slice(14).map((message) => [message.role, message.content])).toEqual([
      ['user', 'Sketch it for watch mode with a threshold of 5 failures.'],
      ['system', 'y-agent: the model call failed after 30.0 s: provider error: 529 overloaded_error: Overloaded']
    ])
    // The child's file_read failed; the ephemeral summarizer's session is its trace; canonical merges two channels.
    expect((await transcript(call, byTitle('Plan the integration tests'))).find((message) => message.role === 'tool_result')).toMatchObject({ isError: true, toolName: 'file_read' })
    expect((await transcript(call, byTitle('/compact (19 messages)'))).map((message) => message.role)).toEqual(['user', 'assistant'])
    expect((await transcript(call, byTitle('weatherly (all channels)'))).map((message) => message.content)).toEqual([
      ...(await transcript(call, byTitle('Is the retry work merged?'))).map((message) => message.content),
      ...(await transcript(call, byTitle('Which files changed today?'))).map((message) => message.content)
    ])
  })

  it('data/: journal entries of all three tiers become the turns’ file changes, rewindable', async () => {
    const { call, byTitle } = await imported('data')
    const main = byTitle('Add retry with backoff to the HTTP client')
    const changes = async (session: Session, turn: number) => (await call('changes.ofTurn', { sessionId: session.id, turn })).items
    const summary = async (session: Session, turn: number) => (await changes(session, turn)).map((change) => `${change.op} ${change.path}`)
    expect(await summary(main, 1)).toEqual(['modify src/http.rs'])
    // README.md (git_ref) is reported, not journaled.
    expect(await summary(main, 2)).toEqual(['modify src/config.rs'])
    expect(await summary(main, 3)).toEqual(['modify tests/fixtures/recorded_503.ndjson', 'create tests/http_retry.rs'])
    expect(await summary(main, 4)).toEqual(['modify Cargo.toml', 'create CHANGELOG.md'])
    // The move (git_ref) is reported; the delete's original content was inline.
    expect(await summary(main, 5)).toEqual(['delete scratch.txt'])
    expect(await summary(main, 6)).toEqual([])
    expect(await summary(main, 7)).toEqual(['modify src/http.rs'])
    expect(await summary(byTitle('Review src/http.rs'), 1)).toEqual(['create REVIEW.md'])
    // blob_file tier: the original is journal/blobs/<sha256>, 1,356 bytes.
    const [fixture] = await changes(main, 3)
    expect(fixture?.before).toMatchObject({ size: 1356, hash: '2ab58bf54c34496f7b028f93a5f57d0d8cd354a8caefc0d9133000569ba71097' })
    // The undone turn's Cargo.toml: its trace has the written text cut at 160 characters; completed
    // from the original, it hashes to what the rollback says the turn wrote.
    const [cargo] = await changes(main, 4)
    expect(cargo?.after?.hash).toBe('ac94bedb2482a7abdbbb4ace4a29f4c8b8cc805fc2b8f39235766132c3ef5068')
    // The data folder is not the project: its files are read here, rewound only from the project
    // opened as a workspace (project.test.ts), never written into y-agent's folder.
    await expect(call('rewind.plan', { sessionId: main.id, turn: 7 })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/y-agent's own data folder.*Open that project/) as string })
  })

  it('data/: traced usage and cost on the messages they measure, totals as in the README', async () => {
    const { sessions, byTitle } = await imported('data')
    const usage = (title: string) => {
      const { inputTokens, outputTokens, costUsd } = byTitle(title).usage
      return [inputTokens, outputTokens, Number((costUsd ?? 0).toFixed(6))]
    }
    expect(usage('Add retry with backoff to the HTTP client')).toEqual([7410, 4873, 0.109752])
    expect(usage('Circuit breaker instead of retries')).toEqual([1260, 214, 0.007728])
    expect(usage('Circuit breaker: threshold 5')).toEqual([0, 0, 0])
    expect(usage('Plan the integration tests')).toEqual([1970, 179, 0.009144])
    expect(usage('/compact (19 messages)')).toEqual([7240, 185, 0.001197])
    expect(usage('Review src/http.rs')).toEqual([3140, 454, 0.017124])
    expect(usage('Is the retry work merged?')).toEqual([1120, 39, 0.003945])
    expect(usage('Which files changed today?')).toEqual([1210, 64, 0.00459])
    expect(usage('weatherly (all channels)')).toEqual([0, 0, 0])
    const total = (pick: (session: Session) => number) => sessions.reduce((sum, session) => sum + pick(session), 0)
    expect(total((session) => session.usage.inputTokens)).toBe(23350)
    expect(total((session) => session.usage.outputTokens)).toBe(6008)
    expect(total((session) => session.usage.cacheReadTokens)).toBe(55360)
    expect(total((session) => session.usage.costUsd ?? 0)).toBeCloseTo(0.15348, 6)
  })

  it('a store that changes is read again: the changed session and everything hanging below it are rewritten, still linked', async () => {
    const { call, dir, sessions } = await imported('data')
    const workspaceId = sessions[0]?.workspaceId ?? 0
    const line = JSON.stringify({ message_id: 'b7f3c1d2-0000-4000-8000-000000000001', role: 'user', content: 'One more thing: log each retry.', timestamp: '2026-03-12T09:30:00Z', metadata: null })
    for (const name of ['deae4050-ea2c-4416-aae6-f050ab965238.jsonl', 'deae4050-ea2c-4416-aae6-f050ab965238.display.jsonl']) appendFileSync(join(dir, 'transcripts', name), `${line}\n`)
    const report = await call('imports.run', { workspaceId, sources: ['y-agent'] })
    // main, its two branches, the child, the ephemeral and the sub-agent session; not the canonical tree.
    expect(report.sessions).toBe(6)
    const tree = await call('sessions.tree', { workspaceId })
    const parentOf = (title: string) => tree.nodes.find((node) => node.id === tree.nodes.find((candidate) => candidate.title === title)?.parentId)?.title
    expect(tree.nodes).toHaveLength(9)
    for (const title of ['Circuit breaker instead of retries', 'Plan the integration tests', '/compact (19 messages)', 'Review src/http.rs']) expect(parentOf(title)).toBe('Add retry with backoff to the HTTP client')
    expect(parentOf('Circuit breaker: threshold 5')).toBe('Circuit breaker instead of retries')
    expect(tree.nodes.find((node) => node.title === 'Add retry with backoff to the HTTP client')?.turnCount).toBe(8)
  })

  // The data folder y-agent's own repository committed (gorgiaxx/y-agent@5049ba5f, PROVENANCE.txt
  // beside it): the store an early build made, its 8 sqlx migrations numbered otherwise than the
  // builds this importer follows, and no session yet.
  it('real store of March 2026: no session, its migrations named as they are, nothing written', async () => {
    const { dir, before, report, sessions } = await imported('gorgiaxx-y-agent-5049ba5f/data')
    expect(sessions).toEqual([])
    expect(report).toMatchObject({ sessions: 0, fileChanges: 0 })
    const reasons = report.skipped.map((skip) => skip.reason)
    // Its migration 4 is "tools and agents", not the chat checkpoints; 7 and 8 are older than 6, not newer.
    expect(reasons.filter((reason) => /newer than|although migration/.test(reason))).toEqual([])
    expect(reasons).toContainEqual(expect.stringMatching(/^the store's migrations are another y-agent layout: 1 \(initial sessions\), 2 \(orchestrator checkpoints\), 3 \(file journal\), 4 \(tools and agents\)/) as string)
    expect(reasons).toContainEqual(expect.stringMatching(/^table chat_checkpoints is missing: /) as string)
    expect(folderListing(dir)).toEqual(before)
  })

  // The accounting rule (issue 40): y-agent journals what its file tools overwrite; a file_write whose
  // result says it ran but that has no journal entry (the store of March 2026 has no journal of the
  // layout read here) is reported, never silently dropped. The real store, with one session added
  // in its own schema and a transcript of the shape y-agent writes.
  it('a file_write with no journal entry is reported as not captured', async () => {
    const dir = join(tempDir(), 'data')
    cpSync(join(FIXTURE, 'gorgiaxx-y-agent-5049ba5f/data'), dir, { recursive: true })
    const id = '5a3c9d1e-0000-4000-8000-000000000001'
    const db = new Database(join(dir, 'y-agent.db'))
    db.prepare("INSERT INTO session_metadata (id, root_id, depth, path, session_type, title, transcript_path, created_at) VALUES (?, ?, 0, '[]', 'main', 'Notes', ?, '2026-03-12T09:00:00.000Z')").run(id, id, `transcripts/${id}.jsonl`)
    db.close()
    mkdirSync(join(dir, 'transcripts'))
    const lines = [
      { message_id: 'm1', role: 'user', content: 'Write the notes file.', timestamp: '2026-03-12T09:00:05Z', metadata: null },
      { message_id: 'm2', role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'file_write', arguments: { path: '/home/dev/app/notes.md', content: '# Notes\n' } }], timestamp: '2026-03-12T09:00:06Z', metadata: null },
      { message_id: 'm3', role: 'tool', content: 'Wrote 8 bytes to /home/dev/app/notes.md', tool_call_id: 'call_1', timestamp: '2026-03-12T09:00:07Z', metadata: null }
    ]
    for (const name of [`${id}.jsonl`, `${id}.display.jsonl`]) writeFileSync(join(dir, 'transcripts', name), lines.map((line) => JSON.stringify(line)).join('\n') + '\n')
    const call = contractCaller(runtime({}))
    const workspace = await call('workspaces.open', { path: dir })
    const report = await call('imports.run', { workspaceId: workspace.id, sources: ['y-agent'] })
    expect(report.sessions).toBe(1)
    expect(report.changesNotJournaled.map((line) => line.reason)).toEqual(['file change not captured (y-agent journaled nothing for this call): /home/dev/app/notes.md'])
  })

  describe('malformed variants: reported, the rest imported, nothing written beside them', () => {
    const base = async (variant: string) => {
      const result = await imported(join('malformed', variant))
      expect(folderListing(result.dir)).toEqual(result.before)
      const reasons = result.report.skipped.map((skip) => skip.reason)
      // The base's git_ref entry (README.md) is always reported: its repository is not there.
      expect(reasons).toContainEqual(expect.stringMatching(/^journal entry 2ff6fa62.*git_ref/) as string)
      return { ...result, reasons: reasons.filter((reason) => !reason.startsWith('journal entry 2ff6fa62')) }
    }
    const totals = (sessions: Sessions) => [sessions.reduce((sum, session) => sum + session.usage.inputTokens, 0), sessions.reduce((sum, session) => sum + session.usage.outputTokens, 0)]

    it('wal-pending: the session only in the WAL is imported; the database and its WAL keep their bytes, no -shm appears', async () => {
      const { reasons, sessions, byTitle, dir } = await base('wal-pending')
      expect(reasons).toEqual([])
      expect(sessions).toHaveLength(3)
      expect(byTitle('Client timeout').turnCount).toBe(1)
      expect(readdirSync(dir).sort()).toEqual(['journal', 'transcripts', 'y-agent.db', 'y-agent.db-wal'])
    })

    it('schema-newer: version 7 is reported, the known tables read as in the base', async () => {
      const { reasons, sessions, byTitle } = await base('schema-newer')
      expect(reasons).toEqual([expect.stringMatching(/schema version 7 is newer than the newest this importer knows \(6\)/) as string])
      expect(sessions).toHaveLength(2)
      expect(byTitle('Add retry with backoff to the HTTP client').turnCount).toBe(3)
      expect(totals(sessions)).toEqual([5170, 3659])
    })

    it('missing-table: chat_checkpoints is reported; sessions, transcripts, journal and traces as in the base', async () => {
      const { reasons, sessions, report, byTitle } = await base('missing-table')
      expect(reasons).toEqual([expect.stringMatching(/^table chat_checkpoints is missing, although migration 4 is recorded as applied/) as string])
      expect(sessions).toHaveLength(2)
      expect(report.fileChanges).toBe(4)
      expect(byTitle('Add retry with backoff to the HTTP client').turnCount).toBe(3)
      expect(totals(sessions)).toEqual([5170, 3659])
    })

    it('transcript-corrupt: lines 11 and 15 are reported, the other 13 display messages imported', async () => {
      const { reasons, sessions, call, byTitle } = await base('transcript-corrupt')
      expect(reasons).toEqual([
        'transcripts/deae4050-ea2c-4416-aae6-f050ab965238.display.jsonl: line 11 is not valid JSON; it is not imported',
        'transcripts/deae4050-ea2c-4416-aae6-f050ab965238.display.jsonl: line 15 is cut off (the file ends without a newline in the middle of it); it is not imported'
      ])
      // 13 display lines, 5 tool calls beside their assistant text.
      expect(await transcript(call, byTitle('Add retry with backoff to the HTTP client'))).toHaveLength(13 + 5)
      // The lost answer's model call still counts (on the answer before it).
      expect(totals(sessions)).toEqual([5170, 3659])
    })

    it('snapshot-missing: the entry whose blob is gone is reported as unrecoverable, the others journaled', async () => {
      const { reasons, report, call, byTitle } = await base('snapshot-missing')
      expect(reasons).toEqual([expect.stringMatching(/^journal entry 896ce2c9-049b-4f95-b409-1bd14865dc3b \(write .*recorded_503\.ndjson, blob_file snapshot\): its snapshot journal\/blobs\/2ab58bf5.* is missing: the original content is unrecoverable/) as string])
      expect(report.fileChanges).toBe(3)
      const changes = await call('changes.ofTurn', { sessionId: byTitle('Add retry with backoff to the HTTP client').id, turn: 3 })
      expect(changes.items.map((change) => `${change.op} ${change.path}`)).toEqual(['create tests/http_retry.rs'])
    })

    it('orphan-parent: the missing parent is reported, the branch imported as a top-level session', async () => {
      const { reasons, sessions, byTitle } = await base('orphan-parent')
      expect(reasons).toEqual([expect.stringMatching(/^session 79b1cf99-7309-4cab-b787-d37feb3b1448 \(branch, depth 1\) names parent e297b89f-bddf-48fa-a0dd-826c339069be, which is not in session_metadata/) as string])
      expect(sessions).toHaveLength(2)
      const orphan = byTitle('Circuit breaker instead of retries')
      expect([orphan.kind, orphan.parentId ?? null, orphan.messageCount]).toEqual(['main', null, 12 + 2])
      expect(totals(sessions)).toEqual([5170, 3659])
    })
  })
})
