import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { SessionSummary } from '../../shared/contract'
import { showCommand } from '../cli/commands'
import { createClaudeCodeParser } from './claude-code/parser'
import { ClaudeHome, FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'

const { tempDir, runtime: testRuntime } = importTestbed('retrace-cc-rewinds-')

/**
 * A session in which the user went back inside Claude Code: turn 1 writes todo.md, turn 2 edits
 * notes.txt and turn 3 only talks; then the user rewinds to after turn 1 and asks for something
 * else, which writes plan.md. Claude Code writes the new prompt below the last line of turn 1.
 */
function rewoundSession() {
  const workspace = tempDir()
  writeFileSync(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
  const home = new ClaudeHome(join(tempDir(), 'claude'))
  const session = home.session(workspace)
  session.prompt('write a todo list')
  session.write('todo.md', '- beta\n', null)
  const endOfTurn1 = session.say('Done: todo.md')
  session.prompt('make beta louder', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- beta\n' })
  session.edit('notes.txt', 'alpha\nbeta\n', 'beta', 'BETA')
  session.prompt('and explain it')
  session.say('I changed beta to BETA.')
  const rewind = () => {
    session.rewindTo(endOfTurn1)
    session.prompt('no: write a plan instead', { 'notes.txt': 'alpha\nbeta\n', 'todo.md': '- beta\n' })
    session.write('plan.md', '1. beta\n', null)
    session.say('Wrote plan.md')
  }
  return { workspace, home, session, rewind }
}

async function imported(call: ReturnType<typeof contractCaller>, workspace: string) {
  const opened = await call('workspaces.open', { path: workspace })
  const report = await call('imports.run', { workspaceId: opened.id })
  const sessions = (await call('sessions.list', { workspaceId: opened.id })).items
  return { workspaceId: opened.id, report, sessions }
}

function only<T>(items: T[], test: (item: T) => boolean): T {
  const found = items.filter(test)
  expect(found).toHaveLength(1)
  return found[0] as T
}

describe('Claude Code rewinds inside a session', () => {
  it('keeps the line the session went on with as the session, and the line the user left as a branch of it', async () => {
    const { workspace, home, rewind } = rewoundSession()
    rewind()
    const call = contractCaller(testRuntime({ claude: home.root }))
    const { report, sessions } = await imported(call, workspace)
    expect(report.skipped).toEqual([])
    expect(sessions).toHaveLength(2)
    const main = only(sessions, (s) => s.kind === 'main')
    const branch = only(sessions, (s) => s.kind === 'branch')
    expect(main).toMatchObject({ rewoundInAgent: false, turnCount: 2, title: 'write a todo list' })
    expect(branch).toMatchObject({ rewoundInAgent: true, parentId: main.id, turnCount: 3, title: 'make beta louder' })

    const mainMessages = (await call('transcript.page', { sessionId: main.id, limit: 100 })).items
    expect(mainMessages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['write a todo list', 'no: write a plan instead'])
    const branchMessages = (await call('transcript.page', { sessionId: branch.id, limit: 100 })).items
    expect(branchMessages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['write a todo list', 'make beta louder', 'and explain it'])

    const detail = await call('sessions.get', { sessionId: branch.id })
    // The branch starts at the prompt the user went back from: turn 2 of the session.
    expect(detail.forkSeq).toBe(mainMessages.findIndex((m) => m.content === 'no: write a plan instead'))
    expect(detail.checkpoints.map((c) => c.turn)).toEqual([1, 2, 3])

    // Each line's file changes stay on it, rewindable there.
    const mainTurn2 = await call('changes.ofTurn', { sessionId: main.id, turn: 2 })
    expect(mainTurn2.items.map((c) => [c.path, c.op])).toEqual([['plan.md', 'create']])
    const branchTurn2 = await call('changes.ofTurn', { sessionId: branch.id, turn: 2 })
    expect(branchTurn2.items.map((c) => [c.path, c.op])).toEqual([['notes.txt', 'modify']])
    const plan = await call('rewind.plan', { sessionId: branch.id, turn: 2 })
    expect(plan.items.map((i) => i.path)).toContain('notes.txt')

    // Usage is counted once: each line has its own answers' (10 input tokens per spoken answer).
    expect([main.usage.inputTokens, branch.usage.inputTokens]).toEqual([20, 10])
  })

  it('says where the session forked in retrace show and in its exports', async () => {
    const { workspace, home, rewind } = rewoundSession()
    rewind()
    const call = contractCaller(testRuntime({ claude: home.root }))
    const { sessions } = await imported(call, workspace)
    const main = only(sessions, (s) => s.kind === 'main')
    const branch = only(sessions, (s) => s.kind === 'branch')
    const shown = async (sessionId: string) => {
      const lines: string[] = []
      await showCommand(call, { sessionId, json: false, transcript: 'display', io: { out: (text: string) => lines.push(text), err: () => {} } })
      return lines.join('\n')
    }
    const mainText = await shown(main.id)
    // The marker stands right before the prompt the session went on with.
    const marker = mainText.indexOf(`⎇ rewound in Claude Code here: the line the user left goes on in branch "make beta louder" (${branch.id})`)
    expect(marker).toBeGreaterThan(mainText.indexOf('Done: todo.md'))
    expect(marker).toBeLessThan(mainText.indexOf('── Turn 2'))
    expect(await shown(branch.id)).toContain('rewound in Claude Code: the user went back to turn 2 and continued in the parent; this is the line left')

    const html = (await call('export.render', { sessionId: main.id, format: 'html', redact: false })).content
    expect(html).toContain('<dt>Rewound in Claude Code</dt><dd>The user went back to turn 2; the line they left is the branch “make beta louder”.</dd>')
    const markdown = (await call('export.render', { sessionId: branch.id, format: 'md', redact: false })).content
    expect(markdown).toContain('| Rewound in Claude Code | This is the line the user left: they went back to turn 2 and continued in “write a todo list”. |')
    const json = JSON.parse((await call('export.render', { sessionId: branch.id, format: 'json', redact: false })).content) as { document: { tree: { agentRewinds: unknown } } }
    expect(json.document.tree.agentRewinds).toEqual([{ turn: 2, left: { id: branch.id, title: 'make beta louder', kind: 'branch' }, from: { id: main.id, title: 'write a todo list', kind: 'main' } }])
  })

  it('splits a session that grows while followed the same way as one imported whole, with the same branch id', async () => {
    const { workspace, home, rewind } = rewoundSession()
    const liveCall = contractCaller(testRuntime({ claude: home.root }))
    const before = await imported(liveCall, workspace)
    expect(before.sessions.map((s) => s.kind)).toEqual(['main'])
    const mainId = before.sessions[0]?.id
    rewind()
    const after = await imported(liveCall, workspace)
    expect(after.report.sessions).toBe(1)
    const liveBranch = only(after.sessions, (s) => s.kind === 'branch')
    expect(only(after.sessions, (s) => s.kind === 'main').id).toBe(mainId)

    const wholeCall = contractCaller(testRuntime({ claude: home.root }))
    const whole = await imported(wholeCall, workspace)
    const wholeBranch = only(whole.sessions, (s) => s.kind === 'branch')
    expect(wholeBranch.id).toBe(liveBranch.id)
    const strip = (s: SessionSummary) => ({ ...s, id: '', parentId: '', createdAt: 0, updatedAt: 0 })
    expect(whole.sessions.map(strip).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual(after.sessions.map(strip).sort((a, b) => a.kind.localeCompare(b.kind)))
  })

  it('reads a retried answer to the same prompt as a rewind in the middle of its turn', async () => {
    const workspace = tempDir()
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    const session = home.session(workspace)
    const prompt = session.prompt('name the project')
    session.say('Call it Foo.')
    session.rewindTo(prompt)
    session.say('Call it Bar.')
    const call = contractCaller(testRuntime({ claude: home.root }))
    const { sessions } = await imported(call, workspace)
    const main = only(sessions, (s) => s.kind === 'main')
    const branch = only(sessions, (s) => s.kind === 'branch')
    const text = async (id: string) => (await call('transcript.page', { sessionId: id, limit: 10 })).items.map((m) => m.content)
    expect(await text(main.id)).toEqual(['name the project', 'Call it Bar.'])
    expect(await text(branch.id)).toEqual(['name the project', 'Call it Foo.'])
    expect([main.turnCount, branch.turnCount]).toEqual([1, 1])
    expect(branch.title).toBe('name the project')
  })

  it('hangs a sub-agent started on the line the user left below that branch, whenever it is read', async () => {
    const scene = () => {
      const workspace = tempDir()
      const home = new ClaudeHome(join(tempDir(), 'claude'))
      const session = home.session(workspace)
      session.prompt('look around')
      const endOfTurn1 = session.say('Looked.')
      session.prompt('research the api')
      session.task('research the api', 'a1b2c3')
      return { workspace, home, session, endOfTurn1 }
    }
    const rewindIn = (session: ReturnType<typeof scene>['session'], at: string) => {
      session.rewindTo(at)
      session.prompt('never mind, just list files')
      session.say('a.txt')
    }
    const placement = async (call: ReturnType<typeof contractCaller>, workspace: string) => {
      const { sessions } = await imported(call, workspace)
      const branch = only(sessions, (s) => s.kind === 'branch')
      const agent = only(sessions, (s) => s.kind === 'sub-agent')
      const branchMessages = (await call('transcript.page', { sessionId: branch.id, limit: 50 })).items
      const detail = await call('sessions.get', { sessionId: agent.id })
      return { parentIsBranch: agent.parentId === branch.id, atTaskCall: branchMessages[detail.forkSeq ?? -1]?.toolName }
    }

    const whole = scene()
    rewindIn(whole.session, whole.endOfTurn1)
    expect(await placement(contractCaller(testRuntime({ claude: whole.home.root })), whole.workspace)).toEqual({ parentIsBranch: true, atTaskCall: 'Task' })

    const live = scene()
    const call = contractCaller(testRuntime({ claude: live.home.root }))
    await imported(call, live.workspace)
    rewindIn(live.session, live.endOfTurn1)
    expect(await placement(call, live.workspace)).toEqual({ parentIsBranch: true, atTaskCall: 'Task' })
  })

  it('splits a real Claude Code 2.1.42 session at the prompt the user went back to', async () => {
    // claude-code-log's real project "-experiments-ideas" (fixtures/conformance/claude-code-log-ideas-fork):
    // after three prompts the user went back to after the first answer and asked the opposite.
    // Its recorded folder is not on this machine: it opens as a history whose folder is gone.
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    home.addFixtureProject(join(FIXTURES, 'conformance/claude-code-log-ideas-fork/projects/-experiments-ideas'), IDEAS_CWD)
    const call = contractCaller(testRuntime({ claude: home.root }))
    const opened = await call('workspaces.open', { path: IDEAS_CWD })
    const report = await call('imports.run', { workspaceId: opened.id })
    expect(report.skipped).toEqual([])
    const sessions = (await call('sessions.list', { workspaceId: opened.id })).items.filter((s) => s.title !== '')
    const main = only(sessions, (s) => s.kind === 'main' && s.turnCount > 1)
    const branch = only(sessions, (s) => s.kind === 'branch')
    expect(branch).toMatchObject({ parentId: main.id, rewoundInAgent: true })
    const prompts = async (id: string) =>
      (await call('transcript.page', { sessionId: id, limit: 200 })).items.filter((m) => m.role === 'user').map((m) => m.content.slice(0, 40))
    expect(await prompts(main.id)).toEqual([
      "Ok, so there's isn't much to see here, m",
      "I actually don't like much this idea, an",
      'Ok, so, to be fair, maybe also list 5 st',
      'Fair enough. Can you write a balanced op'
    ])
    expect(await prompts(branch.id)).toEqual([
      "Ok, so there's isn't much to see here, m",
      'I very much like this idea, and I used i',
      'OK, so, to be fair, maybe also list 5 we',
      'Fair enough. Can you write a balanced op'
    ])
    expect([main.turnCount, branch.turnCount]).toEqual([4, 4])
  })

  it('finds no rewind in real sessions whose lines have several children for other reasons', () => {
    // Real files of Claude Code 2.0.64 and 2.1.38-39 (see their PROVENANCE.txt): progress lines
    // beside tool results, parallel tool calls, responses split over lines, sub-agents.
    const files = realSessionFiles(join(FIXTURES, 'claude-code'))
    expect(files.length).toBeGreaterThanOrEqual(7)
    for (const file of files) {
      const parser = createClaudeCodeParser()
      let offset = 0
      const rewinds = []
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        rewinds.push(...parser.feed(line, offset).filter((record) => record.kind === 'agent-rewind'))
        offset += Buffer.byteLength(line) + 1
      }
      expect({ file, rewinds }).toEqual({ file, rewinds: [] })
    }
  })
})

const IDEAS_CWD = '/home/user/project'

function realSessionFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.jsonl') && !name.includes('peer-'))
    .map((name) => join(dir, name))
}
