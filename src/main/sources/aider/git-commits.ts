import { spawn } from 'node:child_process'

/** A file a commit changed: its content in the commit's parent and in the commit (null: absent). */
export interface CommitFileChange {
  path: string
  before: string | null
  after: string | null
}

const SHA = /^[0-9a-f]{7,40}$/
const NO_BLOB = /^0+$/
/** A git call that takes longer is given up: the turn keeps its hunks. */
const TIME_LIMIT_MS = 20_000
/** Changes kept between reads (commits never change); beyond this many characters the oldest go. */
const CACHE_CHARS = 32 * 1024 * 1024

interface Entry {
  path: string
  before: string | null
  after: string | null
}

const cache = new Map<string, CommitFileChange[] | null>()
let cachedChars = 0

/**
 * The file changes of Aider's commits, read from the repository with plumbing only
 * (`diff-tree`, `cat-file --batch`, under `GIT_OPTIONAL_LOCKS=0`): nothing is written, not even
 * the index. Null for a commit the repository does not have (rebased away, another clone) or
 * one touching a binary file or a submodule: its turn keeps the hunks the history shows.
 */
export async function commitChanges(repo: string, shas: string[]): Promise<Map<string, CommitFileChange[] | null>> {
  const found = new Map<string, CommitFileChange[] | null>()
  for (const sha of new Set(shas)) {
    const key = `${repo}\0${sha}`
    if (cache.has(key)) {
      found.set(sha, cache.get(key) ?? null)
      continue
    }
    const changes = SHA.test(sha) ? await readCommit(repo, sha) : null
    remember(key, changes)
    found.set(sha, changes)
  }
  return found
}

async function readCommit(repo: string, sha: string): Promise<CommitFileChange[] | null> {
  const listing = await git(repo, ['diff-tree', '-r', '-z', '--no-renames', '--root', '--no-commit-id', '--no-ext-diff', sha, '--'])
  if (listing === null) return null
  const entries = parseDiffTree(listing.toString('utf8'))
  if (entries === null) return null
  const ids = entries.flatMap((entry) => [entry.before, entry.after]).filter((id): id is string => id !== null)
  const blobs = ids.length > 0 ? await readBlobs(repo, ids) : new Map<string, Buffer>()
  if (blobs === null) return null
  const changes: CommitFileChange[] = []
  for (const entry of entries) {
    const before = entry.before === null ? null : textOf(blobs.get(entry.before))
    const after = entry.after === null ? null : textOf(blobs.get(entry.after))
    if (before === undefined || after === undefined) return null
    changes.push({ path: entry.path, before, after })
  }
  return changes
}

/** `:<old mode> <new mode> <old id> <new id> <status>\0<path>\0` per changed file. */
function parseDiffTree(text: string): Entry[] | null {
  const parts = text.split('\0')
  const entries: Entry[] = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const fields = (parts[i] ?? '').replace(/^:/, '').split(' ')
    const [oldMode, newMode, oldId, newId] = fields
    const path = parts[i + 1] ?? ''
    if (!oldMode || !newMode || !oldId || !newId || path === '') return null
    if (oldMode === '160000' || newMode === '160000') return null
    entries.push({ path, before: NO_BLOB.test(oldId) ? null : oldId, after: NO_BLOB.test(newId) ? null : newId })
  }
  return entries
}

/** `git cat-file --batch`: `<id> blob <size>\n<content>\n` for each id asked. */
async function readBlobs(repo: string, ids: string[]): Promise<Map<string, Buffer> | null> {
  const out = await git(repo, ['cat-file', '--batch'], ids.join('\n') + '\n')
  if (out === null) return null
  const blobs = new Map<string, Buffer>()
  let at = 0
  for (const id of ids) {
    const end = out.indexOf(10, at)
    const header = /^([0-9a-f]+) blob (\d+)$/.exec(out.subarray(at, end).toString('utf8'))
    if (end === -1 || !header) return null
    const size = Number(header[2])
    blobs.set(id, out.subarray(end + 1, end + 1 + size))
    at = end + 1 + size + 1
  }
  return blobs
}

/** Text content, or undefined for a binary or missing blob (the record carries text). */
function textOf(blob: Buffer | undefined): string | undefined {
  if (!blob || blob.includes(0)) return undefined
  const text = blob.toString('utf8')
  return Buffer.byteLength(text, 'utf8') === blob.length ? text : undefined
}

function git(repo: string, args: string[], input?: string): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const child = spawn('git', ['-C', repo, ...args], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => child.kill(), TIME_LIMIT_MS)
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.on('error', () => resolve(null))
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve(code === 0 ? Buffer.concat(chunks) : null)
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(input ?? '')
  })
}

function remember(key: string, changes: CommitFileChange[] | null): void {
  cache.set(key, changes)
  cachedChars += size(changes)
  for (const [oldest, value] of cache) {
    if (cachedChars <= CACHE_CHARS) break
    cache.delete(oldest)
    cachedChars -= size(value)
  }
}

function size(changes: CommitFileChange[] | null): number {
  return (changes ?? []).reduce((sum, change) => sum + (change.before?.length ?? 0) + (change.after?.length ?? 0) + 64, 64)
}
