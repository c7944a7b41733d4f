import { readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { SourceRecord } from '../records'
import { turnStarts, withCheckpointEdits, type TurnCheckpoints } from './checkpoint-edits'
import { blob, git, type CheckpointChange } from './shadow-git'
import { isObject } from './ui-messages'

const COMMIT_ID = /^[0-9a-f]{40,64}$/

/**
 * Cline 4's checkpoints (sdk `hooks/checkpoint-hooks.ts`): before the first model call of each user
 * turn, a stash-like commit of the workspace's own repository (`git stash create`, its untracked
 * files as a third parent; or HEAD when nothing is changed), kept under
 * `refs/cline/checkpoints/<session>/<run>` and listed in the manifest's `metadata.checkpoint.history`
 * (`{ref, runCount}`; a run whose workspace did not change gets none: the one before stands). A
 * turn's changes are those between its run's checkpoint and the next run's; the last turn has no
 * end. Read with plumbing only (`cat-file`, `ls-tree`), under `GIT_OPTIONAL_LOCKS=0`.
 */
export function withSdkCheckpoints(records: SourceRecord[], metadata: Record<string, unknown>, cwd: string): { records: SourceRecord[]; problems: string[] } {
  const history = isObject(metadata.checkpoint) && Array.isArray(metadata.checkpoint.history) ? metadata.checkpoint.history : []
  const entries = history.flatMap((entry: unknown) => (isObject(entry) && typeof entry.ref === 'string' && COMMIT_ID.test(entry.ref) && typeof entry.runCount === 'number' ? [{ ref: entry.ref, run: entry.runCount }] : []))
  const repository = entries.length > 0 ? repositoryOf(cwd) : null
  if (!repository) return { records, problems: [] }
  const stateAt = (run: number) => entries.filter((entry) => entry.run <= run).sort((a, b) => a.run - b.run).at(-1)?.ref
  const turns = turnStarts(records).length
  const ranges: TurnCheckpoints[] = Array.from({ length: turns }, (_, turn) => ({ from: stateAt(turn + 1), to: turn + 1 < turns ? stateAt(turn + 2) : undefined }))
  const changes = (from: string, to: string) => snapshotChanges(repository.gitDir, repository.root, cwd, from, to)
  return withCheckpointEdits(records, ranges, { gitDir: repository.gitDir, changes }, cwd)
}

/** The repository the workspace is in: the nearest `.git` folder (or `.git` file naming one) at or above it. */
function repositoryOf(cwd: string): { gitDir: string; root: string } | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git')
    try {
      if (statSync(dotGit).isDirectory()) return { gitDir: dotGit, root: dir }
      const named = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]
      if (named) return { gitDir: resolve(dir, named), root: dir }
    } catch {
      // Not here: look further up.
    }
    if (dirname(dir) === dir) return null
  }
}

/** The files of the workspace at two checkpoints that differ, inside the session's folder, relative to it. */
function snapshotChanges(gitDir: string, root: string, cwd: string, from: string, to: string): CheckpointChange[] | null {
  const before = snapshotFiles(gitDir, from)
  const after = snapshotFiles(gitDir, to)
  if (!before || !after) return null
  const changes: CheckpointChange[] = []
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const [was, is] = [before.get(path), after.get(path)]
    if (was === is) continue
    const inCwd = relative(resolve(cwd), join(root, path))
    if (inCwd.startsWith('..')) continue
    const [old, now] = [was === undefined ? null : blob(gitDir, was), is === undefined ? null : blob(gitDir, is)]
    if (old === undefined || now === undefined) return null
    changes.push({ path: inCwd, before: old, after: now })
  }
  return changes
}

/** Path → blob of a checkpoint: its tree, and the untracked files of its third parent when it has one. */
function snapshotFiles(gitDir: string, ref: string): Map<string, string> | null {
  const commit = git(gitDir, ['cat-file', 'commit', ref])
  if (commit === null) return null
  const parents = [...commit.toString('utf8').split('\n\n')[0]!.matchAll(/^parent ([0-9a-f]+)$/gm)].map((match) => match[1] as string)
  const files = treeFiles(gitDir, ref)
  const untracked = parents[2] ? treeFiles(gitDir, parents[2]) : new Map<string, string>()
  if (!files || !untracked) return null
  for (const [path, sha] of untracked) if (!files.has(path)) files.set(path, sha)
  return files
}

function treeFiles(gitDir: string, ref: string): Map<string, string> | null {
  const listing = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', ref])
  if (listing === null) return null
  const files = new Map<string, string>()
  for (const line of listing.toString('utf8').split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(line)
    if (match) files.set(match[2] as string, match[1] as string)
  }
  return files
}
