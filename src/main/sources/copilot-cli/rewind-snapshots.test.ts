import { execFileSync } from 'node:child_process'
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

// A session in a git repository, with the rewind snapshots Copilot CLI 1.0.x writes (built from its
// writer, see PROVENANCE.txt). README.md is as committed when the session starts (so only the
// commit holds its earlier content); NOTES.md has an uncommitted change (so its backup does).
const FIXTURE = join(FIXTURES, 'copilot-cli', 'writer-1.0-rewind', 'session-state')
const SESSION = 'e7a3c1d9-4b2f-4e6a-9c8d-1f0b3a5e7c92'
const RECORDED_CWD = '/home/dev/git-app'
const RECORDED_COMMIT = '0'.repeat(40)
const README_COMMITTED = '# git-app\n\nVersion 1.0\n'
const README_AFTER = '# git-app\n\nVersion 1.1\n'
const NOTES_COMMITTED = '* first note\n'
const NOTES_AT_START = '* first note\n* second note\n'
const NOTES_AFTER_TURN_1 = `${NOTES_AT_START}* third note\n`
const NOTES_AFTER = `${NOTES_AT_START}* third note (done)\n`

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim()
}

describe('Copilot CLI rewind snapshots', () => {
  const { tempDir, runtime } = importTestbed('retrace-copilot-rewind-')

  /** A git workspace as the session found and left it, and a COPILOT_HOME holding the session moved there. */
  async function openCopy(options: { withSnapshots: boolean; worktree?: boolean }) {
    const repo = tempDir()
    git(repo, 'init', '-q', '-b', 'main')
    writeFileSync(join(repo, 'README.md'), README_COMMITTED)
    writeFileSync(join(repo, 'NOTES.md'), NOTES_COMMITTED)
    git(repo, 'add', 'README.md', 'NOTES.md')
    git(repo, 'commit', '-q', '-m', 'Start')
    const commit = git(repo, 'rev-parse', 'HEAD')
    // A linked worktree has a `.git` file naming its folder in the main repository.
    const workspace = options.worktree ? join(tempDir(), 'feature') : repo
    if (options.worktree) git(repo, 'worktree', 'add', '-q', '-b', 'feature', workspace)
    writeFileSync(join(workspace, 'README.md'), README_AFTER)
    writeFileSync(join(workspace, 'NOTES.md'), NOTES_AFTER)
    const home = join(tempDir(), 'copilot-home')
    const sessionDir = join(home, 'session-state', SESSION)
    cpSync(FIXTURE, join(home, 'session-state'), { recursive: true })
    for (const name of ['events.jsonl', 'workspace.yaml', 'rewind-snapshots/index.json']) {
      const path = join(sessionDir, name)
      writeFileSync(path, readFileSync(path, 'utf8').replaceAll(RECORDED_CWD, workspace).replaceAll(RECORDED_COMMIT, commit))
    }
    if (!options.withSnapshots) rmSync(join(sessionDir, 'rewind-snapshots'), { recursive: true })
    const call = contractCaller(runtime({}, { env: { COPILOT_HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    return { workspace, repo, home, call, opened }
  }

  it('gives edits of files that existed before the session their earlier content, so the turns rewind and undo', async () => {
    const { workspace, home, call, opened } = await openCopy({ withSnapshots: true })
    const homeBefore = folderListing(home)
    const gitBefore = folderListing(join(workspace, '.git'))
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ files: 1, sessions: 1, fileChanges: 3, skipped: [] })
    // Copilot's folder and the repository are only read (git plumbing, no lock, no index).
    expect(folderListing(home)).toEqual(homeBefore)
    expect(folderListing(join(workspace, '.git'))).toEqual(gitBefore)

    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    expect(session).toMatchObject({ turnCount: 2 })
    const sessionId = session?.id ?? ''
    const turn1 = await call('changes.ofTurn', { sessionId, turn: 1 })
    expect(turn1.items.map((c) => [c.path, c.op, c.added, c.removed]).sort()).toEqual([
      ['NOTES.md', 'modify', 1, 0],
      ['README.md', 'modify', 1, 1]
    ])
    const turn2 = await call('changes.ofTurn', { sessionId, turn: 2 })
    expect(turn2.items.map((c) => [c.path, c.op, c.added, c.removed])).toEqual([['NOTES.md', 'modify', 1, 1]])

    // Back to before turn 2: only NOTES.md changes, to the backup of its prompt.
    const plan2 = await call('rewind.plan', { sessionId, turn: 2 })
    expect(plan2.items.map((i) => [i.path, i.action, i.conflict, i.refused])).toEqual([['NOTES.md', 'restore', null, null]])
    const rewound2 = await call('rewind.apply', { sessionId, turn: 2, token: plan2.token, choices: [] })
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_AFTER_TURN_1)
    const undo2 = await call('rewind.planUndo', { rewindId: rewound2.rewindId })
    await call('rewind.undo', { rewindId: rewound2.rewindId, token: undo2.token, choices: [] })
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_AFTER)

    // Back to before the session: README.md as committed, NOTES.md with its uncommitted change kept.
    const plan1 = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan1.items.map((i) => [i.path, i.action, i.conflict]).sort()).toEqual([
      ['NOTES.md', 'restore', null],
      ['README.md', 'restore', null]
    ])
    const rewound1 = await call('rewind.apply', { sessionId, turn: 1, token: plan1.token, choices: [] })
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe(README_COMMITTED)
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_AT_START)
    const undo1 = await call('rewind.planUndo', { rewindId: rewound1.rewindId })
    await call('rewind.undo', { rewindId: rewound1.rewindId, token: undo1.token, choices: [] })
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe(README_AFTER)
    expect(readFileSync(join(workspace, 'NOTES.md'), 'utf8')).toBe(NOTES_AFTER)
  })

  it('without the snapshots, edits of files older than the session are reported as not captured', async () => {
    const { call, opened } = await openCopy({ withSnapshots: false })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report.fileChanges).toBe(0)
    // Their lines were imported: changes not journaled, not skipped lines.
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((s) => s.reason)).toEqual([
      expect.stringMatching(/not captured.*README\.md/),
      expect.stringMatching(/not captured.*NOTES\.md/),
      expect.stringMatching(/not captured.*NOTES\.md/)
    ])
  })

  it('reads the commit of a linked worktree through its .git file, leaving the repository as it was', async () => {
    const { workspace, repo, call, opened } = await openCopy({ withSnapshots: true, worktree: true })
    const gitBefore = folderListing(join(repo, '.git'))
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 3, skipped: [] })
    expect(folderListing(join(repo, '.git'))).toEqual(gitBefore)
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    const plan = await call('rewind.plan', { sessionId: session?.id ?? '', turn: 1 })
    await call('rewind.apply', { sessionId: session?.id ?? '', turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe(README_COMMITTED)
  })

  it('an unreadable snapshot index leaves the edits not captured; the rest imports', async () => {
    const { home, call, opened } = await openCopy({ withSnapshots: true })
    const index = join(home, 'session-state', SESSION, 'rewind-snapshots', 'index.json')
    writeFileSync(index, readFileSync(index, 'utf8').slice(0, 200))
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['copilot-cli'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 0 })
    expect(report.changesNotJournaled).toHaveLength(3)
    expect(report.skipped).toEqual([])
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'copilot-cli' })).items
    expect(session).toMatchObject({ turnCount: 2 })
  })
})
