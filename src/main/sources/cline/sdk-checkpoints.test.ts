import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { folderListing } from '../testing/folder-listing'
import { contractCaller, importTestbed } from '../testing/import-testbed'

const SESSION = '1784094124598_rruoq'
const RECORDED_CWD = '/Users/example/dev/cline'
const SIDEBAR = 'apps/examples/desktop-app/webview/components/agent-sidebar.tsx'
type Block = { type: string; name?: string; input?: { old_text: string; new_text: string }; content?: string }

describe('Cline 4 checkpoints (refs/cline/checkpoints in the workspace\'s own repository)', () => {
  const { tempDir, runtime } = importTestbed('retrace-cline-sdk-checkpoints-')

  /** The sidebar file as each of turns 1–4 left it (one `editor` call each), from the attached content. */
  function sidebarStates(messagesPath: string): string[] {
    const messages = (JSON.parse(readFileSync(messagesPath, 'utf8')) as { messages: { content: Block[] }[] }).messages
    const states = [messages[0]?.content.find((block) => block.type === 'file')?.content ?? '']
    for (const block of messages.flatMap((message) => message.content)) {
      if (block.type === 'tool_use' && block.name === 'editor' && block.input) states.push((states.at(-1) as string).replace(block.input.old_text, () => block.input?.new_text ?? ''))
    }
    return states
  }

  /**
   * `git stash create`, empty when there is nothing to stash. Git 2.39 checks for changes twice and
   * exits 1 without a word when the second check finds none (a racily clean file, written in the
   * same second as the index): that is "nothing to stash" too, not a failure.
   */
  function stashCreate(git: (args: string[]) => string, message: string): string {
    try {
      return git(['stash', 'create', message])
    } catch (error) {
      const cause = (error as Error).cause as { status?: number | null; stderr?: string; stdout?: string }
      if (cause.status === 1 && !cause.stderr?.trim() && !cause.stdout?.trim()) return ''
      throw error
    }
  }

  /**
   * A checkpoint as Cline's checkpoint hooks make one before a run: `git stash create`, with the
   * untracked files committed from a scratch index as a third parent, or HEAD when all is clean;
   * kept under `refs/cline/checkpoints/<session>/<run>`.
   */
  function checkpoint(workspace: string, run: number) {
    const git = (args: string[], env: NodeJS.ProcessEnv = {}) => {
      try {
        return execFileSync('git', ['-C', workspace, '-c', 'user.name=dev', '-c', 'user.email=dev@example.com', ...args], { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
      } catch (error) {
        // What git said, not only that it failed (seen once on CI, not reproduced since).
        const { status, stderr } = error as { status: number | null; stderr?: string }
        throw new Error(`git ${args.join(' ')} exited ${status}: ${stderr ?? ''}`, { cause: error })
      }
    }
    const message = `cline checkpoint session=${SESSION} run=${run}`
    const stash = stashCreate(git, message)
    const untrackedFiles = git(['ls-files', '--others', '--exclude-standard', '-z']).split('\0').filter(Boolean)
    let untracked: string | undefined
    if (untrackedFiles.length > 0) {
      const index = { GIT_INDEX_FILE: join(mkdtempSync(join(tmpdir(), 'cline-checkpoint-')), 'index') }
      git(['add', '--force', '--', ...untrackedFiles], index)
      untracked = git(['commit-tree', git(['write-tree'], index), '-m', 'untracked files on cline checkpoint'], index)
      rmSync(dirname(index.GIT_INDEX_FILE), { recursive: true })
    }
    let ref = git(['rev-parse', 'HEAD'])
    if (stash) ref = untracked ? git(['commit-tree', git(['rev-parse', `${stash}^{tree}`]), '-p', `${stash}^1`, '-p', `${stash}^2`, '-p', untracked, '-m', message]) : stash
    else if (untracked) {
      const indexParent = git(['commit-tree', git(['rev-parse', 'HEAD^{tree}']), '-p', 'HEAD', '-m', 'index on cline checkpoint'])
      ref = git(['commit-tree', git(['rev-parse', 'HEAD^{tree}']), '-p', 'HEAD', '-p', indexParent, '-p', untracked, '-m', message])
    }
    git(['update-ref', `refs/cline/checkpoints/${SESSION}/${run}`, ref])
    return { ref, createdAt: 1784094124598 + run * 1000, runCount: run, kind: stash || untracked ? 'stash' : 'commit' }
  }

  /**
   * Cline's SDK fixture session run in a git workspace: turn 2's command leaves build/out.txt
   * (untracked), turn 3's changes the committed README.md; the editor calls change the sidebar.
   */
  function sdkGitWorkspace() {
    const home = tempDir()
    const workspace = join(tempDir(), 'cline')
    const source = join(FIXTURES, 'cline', 'cline-sdk', 'sessions', SESSION)
    const target = join(home, '.cline', 'data', 'sessions', SESSION)
    mkdirSync(target, { recursive: true })
    for (const name of [`${SESSION}.json`, `${SESSION}.messages.json`]) writeFileSync(join(target, name), readFileSync(join(source, name), 'utf8').replaceAll(RECORDED_CWD, workspace))
    const states = sidebarStates(join(target, `${SESSION}.messages.json`))
    mkdirSync(dirname(join(workspace, SIDEBAR)), { recursive: true })
    writeFileSync(join(workspace, SIDEBAR), states[0] as string)
    writeFileSync(join(workspace, 'README.md'), '# cline\n')
    execFileSync('git', ['-C', workspace, 'init', '-q'])
    execFileSync('git', ['-C', workspace, 'add', '.'])
    execFileSync('git', ['-C', workspace, '-c', 'user.name=dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'init'])
    const history = []
    for (const run of [1, 2, 3, 4, 5]) {
      writeFileSync(join(workspace, SIDEBAR), states[run - 1] as string)
      if (run === 3) {
        mkdirSync(join(workspace, 'build'))
        writeFileSync(join(workspace, 'build', 'out.txt'), 'built\n')
      }
      if (run === 4) writeFileSync(join(workspace, 'README.md'), '# cline\n\nBuilt.\n')
      // Backdated, so git never sees a file written in the index's own second (racily clean).
      const past = Date.now() / 1000 - 60 + run
      for (const path of [SIDEBAR, 'README.md', join('build', 'out.txt')]) if (existsSync(join(workspace, path))) utimesSync(join(workspace, path), past, past)
      history.push(checkpoint(workspace, run))
    }
    const manifestPath = join(target, `${SESSION}.json`)
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { metadata: Record<string, unknown> }
    manifest.metadata.checkpoint = { latest: history.at(-1), history }
    writeFileSync(manifestPath, JSON.stringify(manifest))
    return { home, workspace, target, states }
  }

  it('gives turns the files commands changed, from the checkpoint refs, read-only, and rewinds them', async () => {
    const { home, workspace, target, states } = sdkGitWorkspace()
    const before = { session: folderListing(target), git: folderListing(join(workspace, '.git')) }
    const call = contractCaller(runtime({}, { env: { HOME: home } }))
    const opened = await call('workspaces.open', { path: workspace })
    // The four editor edits from the transcript, out.txt and README.md from the checkpoints.
    expect(await call('imports.run', { workspaceId: opened.id, sources: ['cline'] })).toMatchObject({ sessions: 1, fileChanges: 6, skipped: [] })
    const [session] = (await call('sessions.list', { workspaceId: opened.id, source: 'cline' })).items
    const sessionId = session?.id ?? ''
    const changesOf = async (turn: number) => (await call('changes.ofTurn', { sessionId, turn })).items.map((change) => [change.path, change.op]).sort()
    expect(await changesOf(2)).toEqual([[SIDEBAR, 'modify'], ['build/out.txt', 'create']])
    expect(await changesOf(3)).toEqual([['README.md', 'modify'], [SIDEBAR, 'modify']])
    expect(await changesOf(4)).toEqual([[SIDEBAR, 'modify']])

    const plan = await call('rewind.plan', { sessionId, turn: 2 })
    const rewound = await call('rewind.apply', { sessionId, turn: 2, token: plan.token, choices: [] })
    expect(existsSync(join(workspace, 'build', 'out.txt'))).toBe(false)
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('# cline\n')
    expect(readFileSync(join(workspace, SIDEBAR), 'utf8')).toBe(states[1])
    const undoPlan = await call('rewind.planUndo', { rewindId: rewound.rewindId })
    await call('rewind.undo', { rewindId: rewound.rewindId, token: undoPlan.token, choices: [] })
    expect(readFileSync(join(workspace, 'build', 'out.txt'), 'utf8')).toBe('built\n')
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toBe('# cline\n\nBuilt.\n')
    // Neither the session folder nor the repository (no index, lock, object or ref) was written.
    expect({ session: folderListing(target), git: folderListing(join(workspace, '.git')) }).toEqual(before)
  })
})
