import { createHash } from 'node:crypto'
import { appendFileSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
const CODEMIE_CWD = '/tmp/private'
const SPOTTER_MAIN = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'

const { tempDir, runtime } = importTestbed()

function claudeFixtureHome(): ClaudeHome {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  home.addFixtureProject(join(FIXTURES, 'claude-code/spotter/projects-dir'), SPOTTER_CWD)
  home.addFixtureProject(join(FIXTURES, 'claude-code/codemie/-tmp-private'), CODEMIE_CWD)
  return home
}

/** A workspace with one Claude Code session of one question and its answer, and a runtime that imports it. */
function oneSession() {
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const workspace = tempDir()
  const session = home.session(workspace)
  session.prompt('first question')
  session.say('first answer')
  const rt = runtime({ claude: home.root })
  return { workspace, session, rt, id: rt.store.workspaces.open(workspace, 'ws') }
}

function sessionsOf(rt: Runtime, path: string) {
  const workspace = rt.store.workspaces.getByPath(path)
  if (!workspace) throw new Error(`no workspace ${path}`)
  return rt.store.sessions.list({ workspaceId: workspace.id, limit: 100 }).items
}

/** sha256 and mtime of every file under a folder: what "never written" is checked against. */
function fingerprint(root: string): Record<string, string> {
  const result: Record<string, string> = {}
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else result[path] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`
    }
  }
  visit(root)
  return result
}

describe('importing real Claude Code sessions', () => {
  it('brings in main sessions, sub-agents linked to their Task call, the compaction and de-duplicated usage', async () => {
    const home = claudeFixtureHome()
    const rt = runtime({ claude: home.root })
    const report = await rt.imports.importAll()
    expect(report.workspaces.map((w) => w.path).sort()).toEqual([CODEMIE_CWD, SPOTTER_CWD].sort())
    expect(report).toMatchObject({ files: 6, sessions: 6 })
    // Tool calls: 242 in the main spotter file + 12 in its sub-agent + 6 in codemie's main file
    // (parser.test.ts derives these with jq), and none in the one-line warm-up agents.
    expect(report.toolCalls).toBe(260)

    const spotter = sessionsOf(rt, SPOTTER_CWD)
    const main = spotter.find((s) => s.kind === 'main')
    // Two typed prompts; the /compact between them is a local command, not a turn.
    expect(main).toMatchObject({ source: 'claude-code', turnCount: 2 })
    const detail = rt.store.sessions.require(main?.id ?? '')
    expect(detail.contextStartSeq).toBeGreaterThan(0) // the /compact moved the context start

    const agent = rt.store.sessions.bySourceId(detail.workspaceId, 'claude-code', `${SPOTTER_MAIN}/agent-aac57f5`)
    expect(agent).toMatchObject({ kind: 'sub-agent', parentId: main?.id, depth: 1 })
    const taskCall = databaseOf(rt.store).prepare("SELECT seq FROM messages WHERE session_id = ? AND tool_call_id = 'toolu_01Hf8v1Za7y4af8VUwSR4CXU' AND role = 'tool_call'").get(detail.rowId) as { seq: number }
    expect(databaseOf(rt.store).prepare('SELECT fork_seq FROM sessions WHERE uid = ?').get(agent?.id)).toEqual({ fork_seq: taskCall.seq })

    const codemie = sessionsOf(rt, CODEMIE_CWD).find((s) => s.kind === 'main')
    // Usage de-duplicated by message id (parser.test.ts compares these with the peer's metrics).
    expect(codemie?.usage).toMatchObject({ inputTokens: 33, outputTokens: 806, cacheReadTokens: 214_627, cacheWriteTokens: 37_172 })
    expect(codemie?.title).toBe('create hello.py, md and js')
  })

  it('imports twice with the same counts, reads only new bytes, and never writes the agent\'s files', async () => {
    const home = claudeFixtureHome()
    const before = fingerprint(home.root)
    const rt = runtime({ claude: home.root })
    const first = await rt.imports.importAll()
    const count = () => databaseOf(rt.store).prepare('SELECT (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM messages) AS m, (SELECT count(*) FROM journal_entries) AS j').get()
    const counted = count()
    const second = await rt.imports.importAll()
    expect(second).toMatchObject({ files: 0, sessions: 0, messages: 0, toolCalls: 0, fileChanges: 0, skipped: [] })
    expect(count()).toEqual(counted)
    expect(first.messages).toBeGreaterThan(0)
    expect(fingerprint(home.root)).toEqual(before)
  })

  it('knows a file read to its end by its stat alone, and reads it again once it is rewritten', async () => {
    const { session, rt, id } = oneSession()
    const row = () => databaseOf(rt.store).prepare('SELECT mtime_ms AS mtimeMs, offset FROM import_files WHERE path = ?').get(session.path) as { mtimeMs: number; offset: number }
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ files: 1, messages: 2 })
    expect(row()).toEqual({ mtimeMs: statSync(session.path).mtimeMs, offset: statSync(session.path).size })
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ files: 0, messages: 0 })

    // Touched, not written: its first bytes are compared once, and its new time recorded.
    utimesSync(session.path, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'))
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ files: 0, messages: 0 })
    expect(row().mtimeMs).toBe(Date.parse('2030-01-01T00:00:00Z'))

    // Rewritten in place to the same size: another time, other first bytes, read again from the
    // start into its session: the prompt it no longer holds is kept (R31), the one it holds now added.
    const text = readFileSync(session.path, 'utf8')
    writeFileSync(session.path, text.replace('first question', 'other question'))
    expect(statSync(session.path).size).toBe(row().offset)
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ files: 1, sessions: 0, messages: 1 })
    expect(rt.store.searchIndex.search('other', { limit: 5, offset: 0 })).toHaveLength(1)
    expect(rt.store.searchIndex.search('first', { limit: 5, offset: 0 })).toHaveLength(2) // the answer, and the old prompt kept
  })

  it('waits for a partly written last line (a one-shot import reports it, once), then takes it once it is complete', async () => {
    const { workspace, session, rt, id } = oneSession()
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ sessions: 1, messages: 2 })

    const line = JSON.stringify({ type: 'user', uuid: 'late', parentUuid: session.tip, sessionId: session.sessionId, cwd: workspace, timestamp: '2026-01-01T00:01:00.000Z', message: { role: 'user', content: 'second question' } })
    const offset = statSync(session.path).size
    session.raw(line.slice(0, 40), true)
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ messages: 0, skipped: [{ file: session.path, offset, reason: expect.stringContaining('last line incomplete (40 bytes') as string }] })
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ messages: 0, skipped: [] })
    appendFileSync(session.path, `${line.slice(40)}\n`)
    expect(await rt.imports.importWorkspace(id)).toMatchObject({ messages: 1, skipped: [] })
    const [imported] = sessionsOf(rt, workspace)
    expect(imported).toMatchObject({ messageCount: 3, turnCount: 2 })
  })

  it('can be cancelled between files, keeps what was committed, and finishes on the next import', async () => {
    const home = claudeFixtureHome()
    const rt = runtime({ claude: home.root })
    const id = rt.store.workspaces.open(SPOTTER_CWD, 'spotter')
    const controller = new AbortController()
    const cancelled = rt.imports.importWorkspace(id, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 1) controller.abort()
      }
    })
    await expect(cancelled).rejects.toThrow()
    const partial = databaseOf(rt.store).prepare('SELECT count(*) AS n FROM import_files').get() as { n: number }
    expect(partial.n).toBe(1)
    const rest = await rt.imports.importWorkspace(id)
    expect(rest.files).toBe(2)

    const oneShot = runtime({ claude: home.root })
    const oneShotId = oneShot.store.workspaces.open(SPOTTER_CWD, 'spotter')
    await oneShot.imports.importWorkspace(oneShotId)
    const totals = (r: Runtime) => databaseOf(r.store).prepare('SELECT count(*) AS sessions, sum(message_count) AS messages, sum(output_tokens) AS tokens FROM sessions').get()
    expect(totals(rt)).toEqual(totals(oneShot))
  })

  it('keeps an image as an attachment of its message, not as inline text', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const session = home.session(workspace)
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    session.raw(
      JSON.stringify({
        type: 'user',
        uuid: 'img-1',
        parentUuid: null,
        sessionId: session.sessionId,
        cwd: workspace,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: [{ type: 'text', text: 'what is in this screenshot?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }] }
      })
    )
    const rt = runtime({ claude: home.root })
    await rt.imports.importWorkspace(rt.store.workspaces.open(workspace, 'ws'))
    const message = databaseOf(rt.store).prepare("SELECT id, content FROM messages WHERE role = 'user'").get() as { id: number; content: string }
    expect(message.content).toContain('what is in this screenshot?')
    expect(message.content).not.toContain(png.toString('base64'))
    const attachment = databaseOf(rt.store).prepare('SELECT media_type, data FROM message_attachments WHERE message_id = ?').get(message.id) as { media_type: string; data: Buffer }
    expect(attachment.media_type).toBe('image/png')
    expect(Buffer.compare(attachment.data, png)).toBe(0)
  })

  it('reports garbled lines with their reason and imports the rest', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const session = home.session(workspace)
    session.prompt('hello')
    session.raw('{"type":"user", this is not json')
    session.raw('[1,2,3]')
    session.say('still here')
    const rt = runtime({ claude: home.root })
    const report = await rt.imports.importWorkspace(rt.store.workspaces.open(workspace, 'ws'))
    expect(report.messages).toBe(2)
    expect(report.skipped).toHaveLength(2)
    for (const skipped of report.skipped) {
      expect(skipped.file).toBe(session.path)
      expect(skipped.reason.length).toBeGreaterThan(5)
    }
  })

  it('reads a file rewritten in place again from the start into its session, adding only what is new', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const session = home.session(workspace)
    session.prompt('one')
    session.say('two')
    const rt = runtime({ claude: home.root })
    const id = rt.store.workspaces.open(workspace, 'ws')
    await rt.imports.importWorkspace(id)
    // Same inode, other content (an editor or a sync tool rewrote it).
    const lines = readFileSync(session.path, 'utf8').replace('"one"', '"uno"')
    writeFileSync(session.path, lines)
    await rt.imports.importWorkspace(id)
    const sessions = sessionsOf(rt, workspace)
    expect(sessions).toHaveLength(1)
    // "two" is held still; "one" is kept, marked as no longer in the file; "uno" is new (R31).
    expect(sessions[0]).toMatchObject({ messageCount: 3, title: 'uno' })
    const refs = databaseOf(rt.store).prepare("SELECT content, json_extract(source_ref, '$.notInFile') AS gone FROM messages ORDER BY seq").all()
    expect(refs).toEqual([{ content: 'one', gone: 1 }, { content: 'two', gone: null }, { content: 'uno', gone: null }])
  })

  it('links a fork to its parent at the fork point and drops the parent\'s copied lines', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const parent = home.session(workspace)
    parent.prompt('plan the work')
    parent.write('PLAN.md', '# Plan\n', null)
    const forkPoint = parent.say('here is the plan')
    parent.prompt('do it the first way')
    parent.say('done the first way')
    // Claude Code's fork: a new file that starts with a copy of the parent's lines up to the fork point.
    const fork = home.session(workspace)
    const copied = readFileSync(parent.path, 'utf8').split('\n').slice(0, 5).join('\n')
    fork.raw(copied)
    fork.forkedFrom = { sessionId: parent.sessionId, messageUuid: forkPoint }
    fork.prompt('do it the second way')
    fork.say('done the second way')

    const rt = runtime({ claude: home.root })
    await rt.imports.importWorkspace(rt.store.workspaces.open(workspace, 'ws'))
    const sessions = sessionsOf(rt, workspace)
    const main = sessions.find((s) => s.kind === 'main')
    const branch = sessions.find((s) => s.kind === 'branch')
    expect(branch).toMatchObject({ parentId: main?.id, messageCount: 6, turnCount: 2, title: 'do it the second way' })
    const texts = databaseOf(rt.store).prepare("SELECT content FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.uid = ? AND role IN ('user', 'assistant') ORDER BY seq").all(branch?.id).map((row) => (row as { content: string }).content)
    expect(texts).toEqual(['plan the work', 'here is the plan', 'do it the second way', 'done the second way'])
    // The parent's Write of PLAN.md is journaled once, in the parent, not again in the branch.
    const journaled = databaseOf(rt.store).prepare('SELECT s.uid FROM journal_entries e JOIN journal_scopes j ON j.id = e.scope_id JOIN sessions s ON s.id = j.session_id').all()
    expect(journaled).toEqual([{ uid: main?.id }])
  })

  it('makes a session started by /clear the successor of the one before it', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const first = home.session(workspace)
    first.prompt('old topic')
    first.say('old answer')
    const second = home.session(workspace)
    second.command('/clear')
    second.prompt('new topic')
    const rt = runtime({ claude: home.root })
    await rt.imports.importWorkspace(rt.store.workspaces.open(workspace, 'ws'))
    const sessions = sessionsOf(rt, workspace)
    const old = sessions.find((s) => s.title === 'old topic')
    expect(sessions.find((s) => s.id !== old?.id)).toMatchObject({ predecessorId: old?.id })
  })

  it('links a real session begun with /clear after its caveat line to the one before it', async () => {
    // Claude Code 1.0.x writes the local-command caveat first, so the session exists before /clear is read.
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const cwd = '/Users/dain/workspace/claude-code-log'
    home.addFixtureProject(join(FIXTURES, 'claude-code/claude-code-log-turns/-Users-dain-workspace-claude-code-log-sample'), cwd)
    const rt = runtime({ claude: home.root })
    await rt.imports.importWorkspace(rt.store.workspaces.open(cwd, 'claude-code-log'))
    const sessions = sessionsOf(rt, cwd)
    const before = sessions.find((s) => rt.store.sessions.get(s.id)?.sourceSessionId === '0d3a8e6f-290f-4105-a327-a2496e5e2a83')
    const cleared = sessions.find((s) => rt.store.sessions.get(s.id)?.sourceSessionId === '937c6e6b-27e7-4edd-86f1-ad28f9731841')
    expect(before).toBeDefined()
    expect(cleared).toMatchObject({ predecessorId: before?.id })
  })
})

describe('importing real Codex CLI rollouts', () => {
  it('finds rollouts by their recorded cwd, pairs tool calls and sums token_count usage', async () => {
    const rt = runtime({ codex: join(FIXTURES, 'codex/codemie') })
    const before = fingerprint(join(FIXTURES, 'codex/codemie'))
    const report = await rt.imports.importAll()
    expect(report).toMatchObject({ files: 4, sessions: 4 })
    // 3 + 3 + 105 + 38 tool calls in the four rollouts (codex/parser.test.ts derives them with jq).
    expect(report.toolCalls).toBe(149)
    const unpaired = databaseOf(rt.store)
      .prepare("SELECT count(*) AS n FROM messages r WHERE r.role = 'tool_result' AND NOT EXISTS (SELECT 1 FROM messages c WHERE c.session_id = r.session_id AND c.role = 'tool_call' AND c.tool_call_id = r.tool_call_id)")
      .get() as { n: number }
    expect(unpaired.n).toBe(0)
    // Rollout 019b7f94's last total_token_usage: 22,474 input of which 14,848 cached, 300 output.
    const a = databaseOf(rt.store).prepare("SELECT input_tokens, cache_read_tokens, output_tokens FROM sessions WHERE source_session_id LIKE '019b7f94%'").get()
    expect(a).toEqual({ input_tokens: 22_474 - 14_848, cache_read_tokens: 14_848, output_tokens: 300 })
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, messages: 0 })
    expect(fingerprint(join(FIXTURES, 'codex/codemie'))).toEqual(before)
  })

  it('counts one turn per user_message event in sanitised rollouts, whose context markers are redacted', async () => {
    const rt = runtime({ codex: join(FIXTURES, 'codex/localpush') })
    expect(await rt.imports.importAll()).toMatchObject({ files: 6, sessions: 6 })
    // The peer's golden message_count = count(event_msg user_message); before: 10, 3, 13, 46, 4, 3.
    const turns = databaseOf(rt.store).prepare("SELECT substr(source_session_id, 1, 8) AS id, turn_count FROM sessions WHERE source = 'codex' ORDER BY id").all()
    expect(turns).toEqual([
      { id: '019c8a4c', turn_count: 5 },
      { id: '019c8a4d', turn_count: 1 },
      { id: '019c8a53', turn_count: 7 },
      { id: '019c8a59', turn_count: 38 },
      { id: '019c8a70', turn_count: 1 },
      { id: '019c8bfe', turn_count: 1 }
    ])
  })
})

describe('retrace import', () => {
  it('imports every session with --all and reports counts and skipped lines as JSON; a second run adds nothing', async () => {
    const { runCli } = await import('../cli/main')
    const home = claudeFixtureHome()
    const dataDir = join(tempDir(), 'data')
    const out: string[] = []
    const io = { out: (text: string) => out.push(text), err: () => undefined }
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: join(FIXTURES, 'codex/codemie') }
    expect(await runCli(['import', '--all', '--json', '--data-dir', dataDir], io, env)).toBe(0)
    const report = JSON.parse(out.join('\n')) as { workspaces: unknown[]; sessions: number; messages: number; toolCalls: number; fileChanges: number; skipped: { reason: string }[] }
    expect(report.workspaces).toHaveLength(6) // 2 Claude Code cwds + 4 Codex cwds
    expect(report).toMatchObject({ sessions: 10, toolCalls: 260 + 149 })
    expect(report.fileChanges).toBeGreaterThan(0)
    expect(report.skipped.every((line) => line.reason.length > 0)).toBe(true)

    out.length = 0
    expect(await runCli(['import', '--all', '--source', 'codex', '--json', '--data-dir', dataDir], io, env)).toBe(0)
    expect(JSON.parse(out.join('\n'))).toMatchObject({ sessions: 0, messages: 0, skipped: [] })
    expect(await runCli(['import', '--all', '--source', 'windsurf', '--data-dir', dataDir], io, env)).toBe(2)
  })

  it('imports one workspace folder given as an argument', async () => {
    const { runCli } = await import('../cli/main')
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const workspace = tempDir()
    const session = home.session(workspace)
    session.prompt('rename the module')
    session.say('renamed')
    const out: string[] = []
    const io = { out: (text: string) => out.push(text), err: () => undefined }
    const code = await runCli(['import', workspace, '--data-dir', join(tempDir(), 'data')], io, { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: '/nonexistent' })
    expect(code).toBe(0)
    expect(out.join('\n')).toContain('1 file read: 1 new session, 2 messages, 0 tool calls, 0 file changes.')
  })
})
