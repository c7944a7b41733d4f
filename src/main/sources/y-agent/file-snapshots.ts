import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { isWithin } from '../files'
import type { EntryRow } from './store-db'

/** One file's content before and after a tool call, as Retrace's journal takes it. */
export interface FileEdit {
  path: string
  before: string | null
  after: string | null
}

export interface SnapshotContext {
  dataDir: string
  /** The project the entry's session worked in (where a `git_ref` snapshot's repository is), if known. */
  projectRoot: string | null
  /** SHA-256 hashes known to be of what a tool wrote (rollback conflicts, later entries' originals). */
  writtenHashes: Set<string>
}

/** `… [N bytes]`: how y-agent's traces cut payload texts over 160 characters. */
const ABBREVIATED = /… \[(\d+) bytes\]$/
const GIT_REF = /^[0-9a-f]{4,64}$/i

/**
 * A journal entry as file edits with their content before and after, or why it cannot be one.
 * The content before comes from the entry's own snapshot, in whichever of y-agent's three tiers
 * it is kept: `inline` (in the row), `blob_file` (`journal/blobs/<sha256>` in the data folder) or
 * `git_ref` (a commit of the project's repository). The content after is what the tool wrote
 * (its arguments), nothing for a delete, and the moved bytes for a move.
 */
export function fileEdits(entry: EntryRow, written: string | null, context: SnapshotContext): { edits: FileEdit[] } | { problem: string } {
  const what = `journal entry ${entry.id} (${entry.operation} ${entry.fromPath ? `${entry.fromPath} → ` : ''}${entry.filePath}, ${entry.strategy || 'no'} snapshot)`
  const original = entry.operation === 'create' ? { content: null } : originalContent(entry, context)
  if ('problem' in original) return { problem: `${what}: ${original.problem}; the change is not journaled` }
  const before = original.content
  if (before !== null && !isText(before)) return { problem: `${what}: the file is not UTF-8 text, which an imported change cannot carry; the change is not journaled` }
  const text = before === null ? null : before.toString('utf8')
  switch (entry.operation) {
    case 'delete':
      return { edits: [{ path: entry.filePath, before: text, after: null }] }
    case 'move':
      if (!entry.fromPath) return { problem: `${what}: a move without from_path; the change is not journaled` }
      return { edits: [{ path: entry.fromPath, before: text, after: null }, { path: entry.filePath, before: null, after: text }] }
    case 'write':
    case 'create': {
      const after = writtenContent(written, before, context.writtenHashes)
      if (after === null) {
        const why = written === null ? 'what the tool wrote is not recorded' : 'what the tool wrote is only known abbreviated (the trace cuts long payloads) and cannot be completed'
        return { problem: `${what}: ${why}; the change is not journaled` }
      }
      return { edits: [{ path: entry.filePath, before: text, after }] }
    }
    default:
      return { problem: `${what}: unknown operation "${entry.operation}"; the change is not journaled` }
  }
}

/**
 * The file's bytes before the tool ran, from the entry's storage tier. A snapshot that is gone
 * (or does not hash to what the entry recorded) makes the original content unrecoverable: it can
 * be neither shown nor restored.
 */
function originalContent(entry: EntryRow, context: SnapshotContext): { content: Buffer } | { problem: string } {
  const verified = (content: Buffer, where: string): { content: Buffer } | { problem: string } =>
    entry.originalHash && sha256(content) !== entry.originalHash.toLowerCase()
      ? { problem: `its snapshot ${where} does not hash to the recorded original_hash: the original content is unrecoverable (it can be neither shown nor restored)` }
      : { content }
  switch (entry.strategy) {
    case 'inline':
      return entry.originalContent ? { content: entry.originalContent } : { problem: 'its inline snapshot is empty: the original content is unrecoverable' }
    case 'blob_file': {
      const blobs = join(context.dataDir, 'journal', 'blobs')
      const path = entry.blobPath ? resolve(context.dataDir, entry.blobPath) : null
      // The row names the file: never read outside the data folder's blob directory.
      if (!path || !isWithin(path, blobs) || path === blobs) return { problem: `its blob_path ${JSON.stringify(entry.blobPath)} is not in journal/blobs/: not read` }
      try {
        return verified(readFileSync(path), entry.blobPath ?? '')
      } catch {
        return { problem: `its snapshot ${entry.blobPath ?? ''} is missing: the original content is unrecoverable (it can be neither shown nor restored)` }
      }
    }
    case 'git_ref': {
      const content = fromGit(entry, context.projectRoot)
      if (content) return verified(content, `${entry.gitRef ?? ''}:${entry.fromPath ?? entry.filePath}`)
      const where = context.projectRoot ? `the git repository at ${context.projectRoot}` : "the project's git repository"
      return { problem: `its original content is in git commit ${entry.gitRef ?? '(none)'} of ${where}, which is not available here: it can be neither shown nor restored` }
    }
    default:
      return { problem: `its storage strategy "${entry.strategy}" is unknown` }
  }
}

/** `git cat-file blob <ref>:<path>` in the project's repository (read-only); null when it is not there. */
function fromGit(entry: EntryRow, root: string | null): Buffer | null {
  const path = entry.fromPath ?? entry.filePath
  if (!root || !entry.gitRef || !GIT_REF.test(entry.gitRef) || !isWithin(path, root)) return null
  try {
    return execFileSync('git', ['-C', root, 'cat-file', 'blob', `${entry.gitRef}:${relative(root, path).split(sep).join('/')}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10_000,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' }
    })
  } catch {
    return null
  }
}

/**
 * What a write or create put in the file. The transcript keeps a tool's full arguments; a turn
 * rebuilt from its trace only has them abbreviated (`<first 160 characters>… [N bytes]`). Such a
 * text is completed from the original content (the rest of it, at the same offset or aligned to
 * its end) and accepted only when the result hashes to what y-agent recorded the tool as having
 * written: never a guess.
 */
function writtenContent(written: string | null, before: Buffer | null, hashes: Set<string>): string | null {
  if (written === null) return null
  const match = ABBREVIATED.exec(written)
  if (!match) return written
  if (!before) return null
  const size = Number(match[1])
  const prefix = Buffer.from(written.slice(0, match.index), 'utf8')
  if (prefix.length > size) return null
  const rest = size - prefix.length
  const candidates = [Buffer.concat([prefix, before.subarray(prefix.length, prefix.length + rest)]), Buffer.concat([prefix, before.subarray(Math.max(0, before.length - rest))])]
  const found = candidates.find((candidate) => candidate.length === size && hashes.has(sha256(candidate)))
  return found && isText(found) ? found.toString('utf8') : null
}

function isText(content: Buffer): boolean {
  return Buffer.from(content.toString('utf8'), 'utf8').equals(content)
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex')
}
