import { execFileSync } from 'node:child_process'
import { lstatSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { z } from 'zod'
import { readWorkspaceYaml } from './workspace-yaml'

/**
 * Copilot CLI's `/rewind` backups (`<session>/rewind-snapshots/`, the default rewind of 1.0.x in a
 * git repository): at each prompt it notes the repository's HEAD commit and copies every file
 * `git status` lists as changed or untracked into `backups/`; `index.json` (version 1) holds, per
 * prompt (`eventId`, the `user.message` event's id), the `files` by path hash, `filePathMap`
 * turning the hashes into absolute paths. A file it does not list was as committed at `gitCommit`.
 * Read only: the index and backups as files, the repository with git plumbing (`cat-file`) and
 * `GIT_OPTIONAL_LOCKS=0`, so nothing is written there, not even a lock.
 */

/** What a file held when a prompt was sent (as text), null: absent, undefined: not known. */
export type BeforeLookup = (promptEventId: string, absolutePath: string) => string | null | undefined

const SnapshotFileSchema = z.object({ backupFile: z.unknown(), skipped: z.unknown(), isSymlink: z.unknown() }).partial()
type SnapshotFile = z.infer<typeof SnapshotFileSchema>

const SnapshotSchema = z.object({ eventId: z.string(), gitCommit: z.string(), files: z.record(z.string(), SnapshotFileSchema) })
type Snapshot = z.infer<typeof SnapshotSchema>

const IndexSchema = z.object({ version: z.literal(1), snapshots: z.array(z.unknown()), filePathMap: z.record(z.string(), z.unknown()).optional() })

const BACKUP_NAME = /^[0-9a-f]{16}-\d{1,16}$/
const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/
const MAX_BYTES = 10 * 1024 * 1024

/** The lookup for one session folder; the index is read again when a prompt is not in it yet (it grows as the session runs). */
export function rewindSnapshotLookup(sessionDir: string): BeforeLookup {
  const dir = join(sessionDir, 'rewind-snapshots')
  let index = readIndex(dir)
  let gitRoot: string | null | undefined
  return (promptEventId, absolutePath) => {
    let snapshot = index?.snapshots.find((s) => s.eventId === promptEventId)
    if (!snapshot) {
      index = readIndex(dir)
      snapshot = index?.snapshots.find((s) => s.eventId === promptEventId)
    }
    if (!snapshot || !index) return undefined
    // Matched as the file system would: a listed (uncommitted) file missed here would be read from the commit instead.
    const wanted = pathKey(absolutePath)
    const hash = Object.keys(index.paths).find((key) => pathKey(index?.paths[key] ?? '') === wanted)
    const entry = hash === undefined ? undefined : snapshot.files[hash]
    if (gitRoot === undefined) gitRoot = readGitRoot(sessionDir)
    const bytes = entry ? backupOf(dir, entry) : gitRoot === null ? undefined : committedContent(gitRoot, snapshot.gitCommit, absolutePath)
    return bytes?.toString('utf8')
  }
}

/** Version 1 of the index; a snapshot or path entry of another shape is left out, not the whole index. */
function readIndex(dir: string): { snapshots: Snapshot[]; paths: Record<string, string> } | null {
  const index = IndexSchema.safeParse(readJson(join(dir, 'index.json')))
  if (!index.success) return null
  const paths: Record<string, string> = {}
  for (const [key, value] of Object.entries(index.data.filePathMap ?? {})) if (typeof value === 'string') paths[key] = value
  const snapshots = index.data.snapshots.flatMap((raw) => {
    const snapshot = SnapshotSchema.safeParse(raw)
    return snapshot.success ? [snapshot.data] : []
  })
  return { snapshots, paths }
}

/** A listed file's backup; a link, a file too large to copy or a missing backup is not known. */
function backupOf(dir: string, entry: SnapshotFile): Buffer | undefined {
  if (entry.skipped === true || entry.isSymlink === true || typeof entry.backupFile !== 'string' || !BACKUP_NAME.test(entry.backupFile)) return undefined
  const path = join(dir, 'backups', entry.backupFile)
  try {
    const stats = lstatSync(path)
    return stats.isFile() && stats.size <= MAX_BYTES ? readFileSync(path) : undefined
  } catch {
    return undefined
  }
}

/** `workspace.yaml`'s `git_root`: the repository the snapshots' commits are in. */
function readGitRoot(sessionDir: string): string | null {
  try {
    const root = readWorkspaceYaml(readFileSync(join(sessionDir, 'workspace.yaml'), 'utf8')).git_root
    return root && isAbsolute(root) ? root : null
  } catch {
    return null
  }
}

/**
 * The file as committed: a file the snapshot does not list had no change against HEAD. Not in
 * the commit: not known (an ignored file is not listed either, so "absent" cannot be told).
 */
function committedContent(gitRoot: string, commit: string, absolutePath: string): Buffer | undefined {
  if (!COMMIT_ID.test(commit)) return undefined
  const rel = relative(gitRoot, absolutePath)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined
  try {
    // A linked worktree's `.git` is a file naming its folder in the main repository: git follows it.
    return execFileSync('git', ['--git-dir', join(gitRoot, '.git'), 'cat-file', 'blob', `${commit}:${rel.split(sep).join('/')}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: MAX_BYTES,
      timeout: 10_000,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }
    })
  } catch {
    return undefined
  }
}

/** A path as compared: normalised, and without case where the usual file systems ignore it (macOS, Windows). */
function pathKey(path: string): string {
  const normal = resolve(path)
  return process.platform === 'win32' || process.platform === 'darwin' ? normal.toLowerCase() : normal
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown
  } catch {
    return null
  }
}
