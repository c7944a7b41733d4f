import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { join } from 'node:path'

/** Commit ids as Cline records them (`lastCheckpointHash`): nothing else reaches git's command line. */
const COMMIT_ID = /^[0-9a-f]{7,64}$/

/**
 * Cline's checkpoints: a shadow repository per workspace, `<storage>/checkpoints/<cwd-hash>/.git`,
 * whose `core.worktree` is the workspace and whose commits (`checkpoint-<cwd-hash>-<task-id>`) are
 * the task's checkpoints (Cline `src/integrations/checkpoints/CheckpointUtils.ts`). Read with git
 * plumbing only (`cat-file`, `diff-tree`), with `GIT_OPTIONAL_LOCKS=0`: nothing is written in it,
 * not even an index or a lock.
 */
export function shadowGitDir(storage: string, cwd: string): string | null {
  return existingDir(join(storage, 'checkpoints', hashWorkingDir(cwd), '.git'))
}

/**
 * Roo Code's and Kilo Code's checkpoints: a shadow repository per task,
 * `<storage>/tasks/<task-id>/checkpoints/.git` (`RepoPerTaskCheckpointService`), or in their
 * earlier versions one per workspace, `<storage>/checkpoints/<sha256(cwd) cut to 8>/.git`, whose
 * branch `roo-<task-id>` holds the task's commits (`hashWorkspaceDir`). `core.worktree` is the
 * workspace in both; commits are found by id either way.
 */
export function rooShadowGitDir(taskDir: string, storage: string, cwd: string): string | null {
  const own = existingDir(join(taskDir, 'checkpoints', '.git'))
  if (own) return own
  // The hash is of the native path; the environment details name it with forward slashes (Windows).
  for (const path of new Set([cwd, cwd.replaceAll('/', '\\')])) {
    const workspaceRepo = existingDir(join(storage, 'checkpoints', createHash('sha256').update(path).digest('hex').slice(0, 8), '.git'))
    if (workspaceRepo) return workspaceRepo
  }
  return null
}

function existingDir(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? path : null
  } catch {
    return null
  }
}

/** Cline's `hashWorkingDir`: a 31-multiplier string hash, its decimal digits cut to 13. */
export function hashWorkingDir(cwd: string): string {
  let hash = 0
  for (let index = 0; index < cwd.length; index += 1) hash = (hash * 31 + cwd.charCodeAt(index)) >>> 0
  return BigInt(hash).toString().slice(0, 13)
}

export interface CheckpointChange {
  /** Relative to the workspace (the shadow repository's work tree). */
  path: string
  before: Buffer | null
  after: Buffer | null
}

/** What changed between two checkpoint commits, each file's content on both sides; null when a commit is not there. */
export function checkpointChanges(gitDir: string, from: string, to: string): CheckpointChange[] | null {
  if (!COMMIT_ID.test(from) || !COMMIT_ID.test(to)) return null
  const listing = git(gitDir, ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', from, to])
  if (listing === null) return null
  const fields = listing.toString('utf8').split('\0')
  const changes: CheckpointChange[] = []
  // Each change: ":<mode> <mode> <sha> <sha> <status>" then the path.
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const [, , oldSha, newSha, status] = (fields[index] ?? '').split(' ')
    const path = fields[index + 1] ?? ''
    if (!path || !status) continue
    const before = status === 'A' ? null : blob(gitDir, oldSha)
    const after = status === 'D' ? null : blob(gitDir, newSha)
    if (before === undefined || after === undefined) return null
    changes.push({ path, before, after })
  }
  return changes
}

export function blob(gitDir: string, sha: string | undefined): Buffer | undefined {
  if (!sha || !/^[0-9a-f]{40,64}$/.test(sha)) return undefined
  return git(gitDir, ['cat-file', 'blob', sha]) ?? undefined
}

export function git(gitDir: string, args: string[]): Buffer | null {
  try {
    return execFileSync('git', ['--git-dir', gitDir, ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10_000,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }
    })
  } catch {
    return null
  }
}
