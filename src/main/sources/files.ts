import { closeSync, openSync, readSync, statSync, type Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { decodedHead, isCompressed } from './compressed-files'

const HEAD_BYTES = 256 * 1024
const FIRST_HEAD_BYTES = 16 * 1024
/**
 * Heads remembered for the live loop's rediscovery, counted by the bytes of their lines; beyond
 * this, the oldest are forgotten. (Counted by files, thousands of small sessions would keep
 * every line of every head parsed.)
 */
const MAX_CACHED_HEAD_BYTES = 32 * 1024 * 1024

/**
 * Discovery runs again every few seconds while a workspace is followed: a file whose inode,
 * size and mtime are unchanged has the same head, so it is not read again.
 */
const headCache = new Map<string, { signature: string; objects: Record<string, unknown>[]; bytes: number }>()
let cachedBytes = 0

/**
 * The JSON objects on the first complete lines of a file (read-only, at most 256 KiB), for
 * discovery: enough to find a session's id and cwd without reading multi-megabyte histories.
 * `remember: false` leaves them out of the head cache (the caller keeps what it needs of them).
 */
export async function readHeadObjects(path: string, maxLines = 50, until?: HeadStop, options: HeadOptions = {}): Promise<Record<string, unknown>[]> {
  await Promise.resolve() // a failure is a rejection, as callers expect
  const stats = statSync(path)
  const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${maxLines}:${until?.key ?? ''}`
  const cached = headCache.get(path)
  if (cached?.signature === signature) return cached.objects
  // A file read is a moment of the main thread's: let the window's requests in between files.
  await new Promise((resolve) => setImmediate(resolve))
  // A compressed file's head is its decoded first bytes: only those are decoded.
  const { objects, bytes } = isCompressed(path)
    ? parseHeadBytes(await decodedHead(path, HEAD_BYTES), HEAD_BYTES, maxLines, until)
    : readHead(path, Math.min(HEAD_BYTES, stats.size), maxLines, until)
  forget(path) // re-inserted last: the oldest entries are the ones dropped
  // A caller that remembers what it took from the head (DiscoveryCache) has no use for the lines.
  if (options.remember === false) return objects
  headCache.set(path, { signature, objects, bytes })
  cachedBytes += bytes
  for (const oldest of headCache.keys()) {
    if (cachedBytes <= MAX_CACHED_HEAD_BYTES) break
    forget(oldest)
  }
  return objects
}

function forget(path: string): void {
  cachedBytes -= headCache.get(path)?.bytes ?? 0
  headCache.delete(path)
}

export interface HeadOptions {
  /** False: not kept in the head cache (the caller keeps what it needs of the lines). */
  remember?: boolean
}

/**
 * Read synchronously: heads are small and nearly always in the page cache, where a trip through
 * the thread pool for each of a few thousand files cost more than the reads.
 */
/**
 * Says which lines tell what the caller wants, and when it has it (`key` tells the cache): the
 * others are not parsed. Otherwise discovering thousands of small sessions would parse every
 * line of every head, all garbage a moment later.
 */
export interface HeadStop {
  key: string
  /** The rest of the head is not needed. */
  enough(objects: Record<string, unknown>[]): boolean
  /** This line (raw) may tell something the objects so far do not: it is parsed. */
  worthParsing(line: string, objects: Record<string, unknown>[]): boolean
}

function readHead(path: string, bytes: number, maxLines: number, until?: HeadStop): { objects: Record<string, unknown>[]; bytes: number } {
  const fd = openSync(path, 'r')
  try {
    // Most heads tell what discovery needs in their first lines: read 16 KB, and the rest of the
    // window only if those do not.
    const first = parseHead(fd, Math.min(FIRST_HEAD_BYTES, bytes), bytes, maxLines, until)
    return first.complete || bytes <= FIRST_HEAD_BYTES ? first : parseHead(fd, bytes, bytes, maxLines, until)
  } finally {
    closeSync(fd)
  }
}

/** The objects on the complete lines of the file's first `window` bytes (of `bytes` to read at most). */
function parseHead(fd: number, window: number, bytes: number, maxLines: number, until?: HeadStop): { objects: Record<string, unknown>[]; bytes: number; complete: boolean } {
  const buffer = Buffer.allocUnsafe(window)
  const bytesRead = readSync(fd, buffer, 0, window, 0)
  return parseHeadBytes(buffer.subarray(0, bytesRead), window < bytes ? bytesRead : HEAD_BYTES, maxLines, until)
}

/** The objects on the complete lines of these first bytes of a file (its last line is cut when there are `cutAt` of them). */
function parseHeadBytes(head: Buffer, cutAt: number, maxLines: number, until?: HeadStop): { objects: Record<string, unknown>[]; bytes: number; complete: boolean } {
  const lines = head.toString('utf8').split('\n')
  if (head.length === cutAt) lines.pop() // the last one may be cut
  const objects: Record<string, unknown>[] = []
  let parsedBytes = 0
  for (const line of lines.slice(0, maxLines)) {
    if (until && !until.worthParsing(line, objects)) continue
    parsedBytes += line.length
    try {
      const value: unknown = JSON.parse(line)
      if (value && typeof value === 'object' && !Array.isArray(value)) objects.push(value as Record<string, unknown>)
      if (until?.enough(objects)) return { objects, bytes: parsedBytes, complete: true }
    } catch {
      // a garbled line says nothing about the file; the importer reports it
    }
  }
  return { objects, bytes: parsedBytes, complete: lines.length >= maxLines }
}

/** Entries of a folder, or none when it does not exist or cannot be read. */
export async function listDir(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true })
  } catch {
    return []
  }
}

/** Every file under `root` whose name passes `accept`, depth-first, without following links. */
export async function walkFiles(root: string, accept: (name: string) => boolean, signal?: AbortSignal, maxDepth = 6): Promise<string[]> {
  const found: string[] = []
  const visit = async (dir: string, depth: number): Promise<void> => {
    signal?.throwIfAborted()
    for (const entry of await listDir(dir)) {
      const path = join(dir, entry.name)
      if (entry.isDirectory() && depth < maxDepth) await visit(path, depth + 1)
      else if (entry.isFile() && accept(entry.name)) found.push(path)
    }
  }
  await visit(root, 0)
  return found.sort()
}

/** A path is the workspace itself or inside it (sessions started in a sub-folder belong to it). */
export function isWithin(path: string, workspace: string): boolean {
  const base = workspace.endsWith('/') ? workspace : `${workspace}/`
  return path === workspace || path.startsWith(base)
}

export function stringField(object: Record<string, unknown>, key: string): string | undefined {
  const value = object[key]
  return typeof value === 'string' && value.length > 0 ? value : undefined
}
