import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { isDirectory } from '../../fs/stat'

/** A file as it was in a snapshot tree: its text, null when the tree has no such file, undefined when unknown. */
export type SnapshotFile = string | null | undefined

/** One read asked of the snapshot repository: a path (relative to the worktree) in a tree. */
export interface SnapshotRequest {
  tree: string
  path: string
}

/** OpenCode skips files over 2 MB in its snapshots; a blob larger than this is not read either. */
const MAX_BLOB_BYTES = 2 * 1024 * 1024
const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/

/**
 * Read files out of OpenCode's snapshot repository (`<data>/snapshot/<project>/`, in current
 * versions one more folder per worktree), read-only with git plumbing alone: one
 * `git cat-file --batch` per repository, `GIT_OPTIONAL_LOCKS=0`, nothing that writes (no index,
 * no lock, no gc). Trees are looked for in every repository of the project; a tree that is in
 * none was pruned (OpenCode gc's unreachable snapshots after 7 days) and its files are unknown.
 */
export function readSnapshotFiles(dataDir: string, projectId: string, requests: SnapshotRequest[]): { files: Map<string, SnapshotFile>; missingTrees: number; problem: string | null } {
  const files = new Map<string, SnapshotFile>()
  const wanted = requests.filter((request) => HASH.test(request.tree) && !/[\n\r]/.test(request.path))
  const trees = [...new Set(wanted.map((request) => request.tree))]
  if (trees.length === 0) return { files, missingTrees: 0, problem: null }
  const found = new Set<string>()
  let problem: string | null = null
  for (const gitDir of repositories(join(dataDir, 'snapshot', projectId))) {
    const pending = trees.filter((tree) => !found.has(tree))
    if (pending.length === 0) break
    let answers: (Buffer | null)[]
    try {
      answers = catFile(gitDir, pending.map((tree) => `${tree}^{tree}`))
    } catch (error) {
      problem = `OpenCode's snapshot repository ${gitDir} could not be read (${(error as Error).message.split('\n')[0] ?? 'git failed'}): files changed only by shell commands are not rewindable`
      continue
    }
    const here = pending.filter((_, index) => answers[index] !== null)
    for (const tree of here) found.add(tree)
    const reads = wanted.filter((request) => here.includes(request.tree))
    if (reads.length === 0) continue
    const blobs = catFile(gitDir, reads.map((request) => `${request.tree}:${request.path}`))
    reads.forEach((request, index) => {
      const blob = blobs[index]
      files.set(key(request), blob === null || blob === undefined ? null : blob.includes(0) || blob.length > MAX_BLOB_BYTES ? undefined : blob.toString('utf8'))
    })
  }
  return { files, missingTrees: trees.length - found.size, problem }
}

export function key(request: SnapshotRequest): string {
  return `${request.tree}:${request.path}`
}

/** The project's snapshot folder itself when it is a git directory, and each one inside it. */
function repositories(folder: string): string[] {
  const isGitDir = (dir: string) => isDirectory(join(dir, 'objects')) && isDirectory(join(dir, 'refs'))
  const found = isGitDir(folder) ? [folder] : []
  let names: string[]
  try {
    names = readdirSync(folder).sort()
  } catch {
    return found
  }
  for (const name of names) if (isGitDir(join(folder, name))) found.push(join(folder, name))
  return found
}

/** `git cat-file --batch`: each object's content, or null when it is missing. */
function catFile(gitDir: string, names: string[]): (Buffer | null)[] {
  const output = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], {
    input: `${names.join('\n')}\n`,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_DIR: gitDir, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
    maxBuffer: 512 * 1024 * 1024,
    timeout: 60_000,
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const answers: (Buffer | null)[] = []
  let at = 0
  for (let index = 0; index < names.length && at < output.length; index++) {
    const end = output.indexOf(0x0a, at)
    const header = output.subarray(at, end === -1 ? output.length : end).toString('utf8')
    at = end === -1 ? output.length : end + 1
    const match = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header)
    if (!match) {
      answers.push(null) // "<name> missing" / "ambiguous"
      continue
    }
    const size = Number(match[2])
    answers.push(output.subarray(at, at + size))
    at += size + 1
  }
  return answers
}

