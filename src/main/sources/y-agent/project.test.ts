import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createRuntime } from '../../runtime/runtime'
import { FIXTURES } from '../testing/claude-home'
import { contractCaller, importTestbed } from '../testing/import-testbed'
import { discoverYAgentFiles, discoverYAgentWorkspace, yAgentRoots } from './discover'

const RECORDED = '/home/dev/weatherly'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('a y-agent store under Y_AGENT_HOME, for the project its sessions worked in', () => {
  const { tempDir } = importTestbed('retrace-y-agent-project-')

  /**
   * The fixture's store, moved to a project folder that exists here: its journal paths point
   * into it, and its git_ref snapshots name a commit of its repository (README.md, docs/notes.md).
   */
  function setUp() {
    const root = realpathSync(tempDir())
    const home = join(root, 'y-agent-home')
    cpSync(join(FIXTURES, 'y-agent/data'), join(home, 'data'), { recursive: true })
    const project = join(root, 'weatherly')
    mkdirSync(join(project, 'docs'), { recursive: true })
    const readme = '# weatherly\n\nA small weather CLI.\n'
    const notes = 'Retry notes: back off on 503.\n'
    writeFileSync(join(project, 'README.md'), readme)
    writeFileSync(join(project, 'docs/notes.md'), notes)
    const git = (...args: string[]) => execFileSync('git', ['-C', project, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim()
    git('init', '-q')
    git('add', '.')
    git('commit', '-q', '-m', 'init')
    const commit = git('rev-parse', 'HEAD')
    const db = new Database(join(home, 'data/y-agent.db'))
    db.prepare('UPDATE file_journal_entries SET file_path = replace(file_path, ?, ?), from_path = replace(from_path, ?, ?)').run(RECORDED, project, RECORDED, project)
    db.prepare("UPDATE file_journal_entries SET git_ref = ?, original_hash = CASE WHEN from_path IS NULL THEN ? ELSE ? END WHERE storage_strategy = 'git_ref'").run(commit, sha256(readme), sha256(notes))
    db.prepare('UPDATE diag_observations SET input = replace(input, ?, ?)').run(RECORDED, project)
    db.prepare('UPDATE file_journal_rollbacks SET conflicts = replace(conflicts, ?, ?)').run(RECORDED, project)
    db.close()
    const env = { HOME: '/nonexistent', Y_AGENT_HOME: home }
    return { root, home, project, env }
  }

  it('is discovered for the project (and no other folder), and imports with every tier, git_ref included', async () => {
    const { root, project, env } = setUp()
    const roots = yAgentRoots(env)
    expect((await discoverYAgentWorkspace(project, roots)).map((file) => file.cwd)).toEqual([project])
    expect(await discoverYAgentWorkspace(join(root, 'y-agent-home'), roots)).toEqual([])
    expect((await discoverYAgentFiles(roots)).map((file) => file.cwd)).toEqual([project])

    const rt = createRuntime({ dataDir: join(root, 'retrace'), host: { binding: 'web' }, version: 'test', env, followImports: false })
    try {
      const call = contractCaller(rt)
      const workspace = await call('workspaces.open', { path: project })
      const report = await call('imports.run', { workspaceId: workspace.id, sources: ['y-agent'] })
      // The store knows one project: the canonical conversation, which touched no file, is its too.
      expect(report).toMatchObject({ sessions: 9, skipped: [] })
      // 11 entries; the move is the old path emptied and the new one filled.
      expect(report.fileChanges).toBe(12)
      const main = (await call('sessions.list', { workspaceId: workspace.id })).items.find((session) => session.title === 'Add retry with backoff to the HTTP client')
      const changes = async (turn: number) => (await call('changes.ofTurn', { sessionId: main?.id ?? '', turn })).items.map((change) => `${change.op} ${change.path}`)
      expect(await changes(2)).toEqual(['modify src/config.rs', 'modify README.md'])
      expect(await changes(5)).toEqual(['delete docs/notes.md', 'create docs/RETRY.md', 'delete scratch.txt'])
      // Rewinding to before turn 5 (turns 5-7): the disk holds the commit, so the notes are already
      // back and RETRY.md absent; scratch.txt and src/http.rs (as turn 1 left it) would be recreated.
      const plan = await call('rewind.plan', { sessionId: main?.id ?? '', turn: 5 })
      expect(plan.items.map((item) => [item.path, item.action]).sort()).toEqual([
        ['docs/RETRY.md', 'none'],
        ['docs/notes.md', 'none'],
        ['scratch.txt', 'create'],
        ['src/http.rs', 'create']
      ])
    } finally {
      rt.close()
    }
  })
})
