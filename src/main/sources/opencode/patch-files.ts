import { isAbsolute, relative } from 'node:path'
import { isRecord } from '../plain-data'
import { openCodeFileTools } from './file-tools'
import { text, type OpenCodeStore } from './model'
import { key, readSnapshotFiles, type SnapshotFile, type SnapshotRequest } from './snapshot-repository'

/** A file (absolute, as a `patch` part lists it) in a snapshot tree, read from the snapshot repository. */
export type SnapshotLookup = (tree: string, file: string) => SnapshotFile

/** The snapshot a `patch` part's files changed to: that of the `step-finish` just before it. */
export interface StepPatch {
  before: string
  after: string
  files: string[]
}

/**
 * The `patch` parts of a message: each step that changed files ends with a `step-finish`
 * (its snapshot: the worktree after the step) followed by a `patch` (`hash`: the snapshot the
 * step started from, `files`: what changed).
 */
export function stepPatches(parts: { data: Record<string, unknown> }[]): StepPatch[] {
  const patches: StepPatch[] = []
  let after: string | null = null
  for (const { data } of parts) {
    if (data.type === 'step-finish') after = text(data.snapshot)
    else if (data.type === 'step-start') after = null
    else if (data.type === 'patch' && after && typeof data.hash === 'string' && Array.isArray(data.files)) {
      patches.push({ before: data.hash, after, files: data.files.filter((file): file is string => typeof file === 'string') })
    }
  }
  return patches
}

/**
 * The edits of a message that kept their patch alone (OpenCode ≥ 1.1x: `filediff.patch`, no before
 * and after), each the first change of its file in its step and before any shell command of the
 * step: the file they patch is the file as the snapshot the step started from (`step-start`) holds it. Call id → that tree and the file.
 */
export function patchOnlyEditBases(parts: { data: Record<string, unknown> }[]): Map<string, { tree: string; file: string }> {
  const bases = new Map<string, { tree: string; file: string }>()
  let start: string | null = null
  let touched = new Set<string>()
  for (const { data } of parts) {
    if (data.type === 'step-start') {
      start = text(data.snapshot)
      touched = new Set()
      continue
    }
    // After a shell command the snapshot no longer tells what any file held.
    if (data.type === 'tool' && openCodeFileTools.shell.includes(String(data.tool))) start = null
    if (data.type !== 'tool' || !isRecord(data.state) || data.state.status !== 'completed') continue
    const input = isRecord(data.state.input) ? data.state.input : {}
    const metadata = isRecord(data.state.metadata) ? data.state.metadata : {}
    const diff = isRecord(metadata.filediff) ? metadata.filediff : {}
    const file = text(diff.file) ?? text(input.filePath) ?? text(metadata.filepath)
    if (!file) continue
    const patchOnly = data.tool === 'edit' && typeof diff.patch === 'string' && typeof diff.before !== 'string'
    const callId = text(data.callID)
    if (patchOnly && start && callId && !touched.has(file)) bases.set(callId, { tree: start, file })
    if (openCodeFileTools.writes.includes(String(data.tool))) touched.add(file)
  }
  return bases
}

/**
 * Every file the store's patches name, before and after its step, and the files patch-only edits
 * patch, read in one pass per repository. Problems: an unreadable repository, and steps whose snapshots were pruned.
 */
export function patchFiles(dataDir: string, store: OpenCodeStore): { lookupFor: (projectId: string) => SnapshotLookup; problems: string[] } {
  const byProject = new Map<string, { worktree: string; requests: SnapshotRequest[] }>()
  for (const session of store.sessions) {
    const worktree = store.worktrees.get(session.projectId) ?? session.directory
    if (!worktree || worktree === '/') continue
    const entry = byProject.get(session.projectId) ?? { worktree, requests: [] }
    byProject.set(session.projectId, entry)
    for (const message of session.messages) {
      for (const patch of stepPatches(message.parts)) {
        for (const file of patch.files) {
          const path = relativePath(worktree, file)
          if (path) entry.requests.push({ tree: patch.before, path }, { tree: patch.after, path })
        }
      }
      for (const { tree, file } of patchOnlyEditBases(message.parts).values()) {
        const path = relativePath(worktree, file)
        if (path) entry.requests.push({ tree, path })
      }
    }
  }
  const worktrees = new Map<string, string>()
  const files = new Map<string, SnapshotFile>()
  const problems: string[] = []
  let missing = 0
  for (const [projectId, { worktree, requests }] of byProject) {
    if (requests.length === 0) continue
    const read = readSnapshotFiles(dataDir, projectId, requests)
    for (const [name, file] of read.files) files.set(`${projectId}\n${name}`, file)
    worktrees.set(projectId, worktree)
    missing += read.missingTrees
    if (read.problem) problems.push(read.problem)
  }
  if (missing > 0) problems.push(`${missing} step snapshot${missing === 1 ? ' is' : 's are'} not in OpenCode's snapshot repository (OpenCode prunes them after 7 days): files changed only by shell commands in those steps are not rewindable`)
  const lookupFor = (projectId: string): SnapshotLookup => (tree, file) => {
    const worktree = worktrees.get(projectId)
    const path = worktree ? relativePath(worktree, file) : null
    return path ? files.get(`${projectId}\n${key({ tree, path })}`) : undefined
  }
  return { lookupFor, problems }
}

function relativePath(worktree: string, file: string): string | null {
  if (!isAbsolute(file)) return null
  const path = relative(worktree, file).replaceAll('\\', '/')
  return path === '' || path.startsWith('../') || path === '..' || isAbsolute(path) ? null : path
}
