import { spawnSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'

// The peers' approach, as they run it: a separate git directory whose work tree is the user's
// workspace, so the workspace's own .git (if any) is never touched. git's defaults are kept
// except where the issue says otherwise, and two settings that would make the numbers depend
// on timing rather than on the work: see CONFIG.

/**
 * Identity and signing (a commit must not prompt or sign), no line-ending conversion (the issue
 * asks for it), and no automatic gc: with ~10,000 loose objects every `commit` would start a
 * *detached* background `gc --auto`, which would compete for the CPU with whatever is measured
 * next and pack the store at a random moment. gc is measured separately, on a copy.
 */
const CONFIG = [
  'user.name=Retrace Bench',
  'user.email=bench@retrace.invalid',
  'commit.gpgsign=false',
  'core.autocrlf=false',
  'gc.auto=0',
  'maintenance.auto=false'
].flatMap((setting) => ['-c', setting])

/** The machine's ~/.gitconfig and /etc/gitconfig could change behaviour (fsync, compression, hooks): ignore both. */
const ENV: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }
for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY']) delete ENV[name]

export function gitVersion(): string {
  return runGit([], process.cwd(), ['--version']).trim().replace(/^git version /, '')
}

function runGit(prefix: string[], cwd: string, args: string[]): string {
  const result = spawnSync('git', [...CONFIG, ...prefix, ...args], { cwd, env: ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.error) throw result.error
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed (${result.status}): ${result.stderr.trim()}`)
  return result.stdout
}

export class ShadowGit {
  private commits = 0

  constructor(
    readonly gitDir: string,
    readonly workTree: string
  ) {}

  /** Run git on the shadow repository, from inside the work tree (so a `.` pathspec means the whole workspace). */
  git(...args: string[]): string {
    return runGit([`--git-dir=${this.gitDir}`, `--work-tree=${this.workTree}`], this.workTree, args)
  }

  /** `init`, then a first checkpoint. Returns the milliseconds of all three commands. */
  initAndCommit(): number {
    const started = performance.now()
    this.git('init', '-q')
    this.checkpoint()
    return performance.now() - started
  }

  /**
   * A checkpoint as peers take one: `add -A` and `commit`. `--allow-empty` so a checkpoint of an
   * unchanged tree still succeeds (peers pass it for the same reason); `-q` skips the summary.
   */
  checkpoint(): void {
    this.git('add', '-A')
    this.git('commit', '-q', '--allow-empty', '-m', `checkpoint ${++this.commits}`)
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim()
  }

  /** Paths that differ between two commits (to check a checkpoint recorded what it should). */
  changedPaths(from: string, to: string): string[] {
    return this.git('diff', '--name-only', '--no-renames', from, to).split('\n').filter(Boolean)
  }

  /** Rewind the whole workspace to a checkpoint, the peers' way. */
  restore(commit: string): void {
    this.git('checkout', '-q', commit, '--', '.')
  }
}

/** `git gc` on a repository (a copy: the measured one must stay as a peer leaves it). */
export function gitGc(gitDir: string): number {
  const started = performance.now()
  runGit([`--git-dir=${gitDir}`], process.cwd(), ['gc', '-q'])
  return performance.now() - started
}
