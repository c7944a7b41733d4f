import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-aider-git-')

const prompt = (text: string) => `\n#### ${text}  \n`
const answer = (text: string) => `\n${text.trim()}\n\n`
const output = (...lines: string[]) => lines.map((line) => `> ${line}  \n`).join('')
const block = (path: string, search: string, replace: string) => `${path}\n\`\`\`python\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\``

/** A repository set up the way Aider leaves it: one commit per applied answer (porcelain only here, in the test's own repository). */
function repository() {
  const root = tempDir()
  const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=aider', '-c', 'user.email=aider@example.com', ...args], { encoding: 'utf8' }).trim()
  git('init', '-q')
  const commit = (files: Record<string, string>, message: string) => {
    for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content)
    git('add', '-A')
    git('commit', '-q', '-m', message)
    return git('rev-parse', '--short=7', 'HEAD')
  }
  return { root, git, commit }
}

describe('Aider commits as exact file changes', () => {
  it('reads each turn\'s commit from the repository (plumbing only) and rewinds an edit of a file that existed before', async () => {
    const { root, git, commit } = repository()
    commit({ 'app.py': 'def main():\n    print("hi")\n', 'notes.md': 'todo\n' }, 'initial')
    // The answer's SEARCH text is not the file's exact text (Aider matched it loosely): only the commit knows the result.
    const louder = commit({ 'app.py': 'def main():\n    print("HI")\n' }, 'feat: Shout the greeting')
    const named = commit({ 'app.py': 'def main(name):\n    print("HI", name)\n' }, 'feat: Greet by name')
    const history = [
      '\n# aider chat started at 2024-09-01 10:00:00\n\n',
      output('aider app.py', 'Aider v0.54.0', 'Main model: claude-3-5-sonnet-20240620 with diff edit format'),
      prompt('shout'),
      answer(`Done:\n\n${block('app.py', '    print("hi")  \n', '    print("HI")\n')}`),
      output('Tokens: 1.2k sent, 50 received. Cost: $0.0043 message, $0.0043 session.', 'Applied edit to app.py', `Commit ${louder} feat: Shout the greeting`),
      prompt('greet by name'),
      answer(`Sure:\n\n${block('app.py', 'def main():\n    print("HI")\n', 'def main(name):\n    print("HI", name)\n')}`),
      output('Applied edit to app.py', `Commit ${named} feat: Greet by name`),
      prompt('/undo'),
      output(`Removed: ${named} feat: Greet by name`, `Now at:  ${louder} feat: Shout the greeting`),
      prompt('fix the notes'),
      answer(`Here:\n\n${block('notes.md', 'todo\n', 'done\n')}`),
      output('Applied edit to notes.md', 'Commit 0badc0d fix: Notes')
    ].join('')
    writeFileSync(join(root, '.aider.chat.history.md'), history)
    // What /undo left on disk.
    git('reset', '-q', '--hard', louder)
    writeFileSync(join(root, '.aider.chat.history.md'), history)
    const gitBefore = folderListing(join(root, '.git'))

    const call = contractCaller(runtime({}))
    const opened = await call('workspaces.open', { path: root })
    const report = await call('imports.run', { workspaceId: opened.id, sources: ['aider'] })
    expect(report).toMatchObject({ sessions: 1, fileChanges: 3 })
    // The last commit is not in the repository: its hunk stays, and the file's earlier content is unknown.
    expect(report.skipped).toEqual([])
    expect(report.changesNotJournaled.map((skip) => skip.reason)).toEqual(['file change not captured (its earlier content is unknown): notes.md'])
    expect(folderListing(join(root, '.git'))).toEqual(gitBefore)

    const [session] = (await call('sessions.list', { workspaceId: opened.id })).items
    const sessionId = session?.id ?? ''
    const changes = async (turn: number) => (await call('changes.ofTurn', { sessionId, turn })).items.map((c) => [c.path, c.op, c.added, c.removed])
    expect(await changes(1)).toEqual([['app.py', 'modify', 1, 1]])
    expect(await changes(2)).toEqual([['app.py', 'modify', 2, 2]])
    expect(await changes(3)).toEqual([['app.py', 'modify', 2, 2]])
    expect(await changes(4)).toEqual([])

    const plan = await call('rewind.plan', { sessionId, turn: 1 })
    expect(plan.items.map((item) => [item.path, item.action, item.conflict])).toEqual([['app.py', 'restore', null]])
    const rewound = await call('rewind.apply', { sessionId, turn: 1, token: plan.token, choices: [] })
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('def main():\n    print("hi")\n')
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('def main():\n    print("HI")\n')
  })
})
