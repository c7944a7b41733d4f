import type { Dirent } from 'node:fs'
import { open, readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'

const HEAD_BYTES = 256 * 1024
/** Heads remembered for the live loop's rediscovery; beyond this, the oldest are forgotten. */
const MAX_CACHED_HEADS = 20_000

/**
 * Discovery runs again every few seconds while a workspace is followed: a file whose inode,
 * size and mtime are unchanged has the same head, so it is not read again.
 */
const headCache = new Map<string, { signature: string; objects: Record<string, unknown>[] }>()

/**
 * The JSON objects on the first complete lines of a file (read-only, at most 256 KiB), for
 * discovery: enough to find a session's id and cwd without reading multi-megabyte histories.
 */
export async function readHeadObjects(path: string, maxLines = 50): Promise<Record<string, unknown>[]> {
  const stats = await stat(path)
  const signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${maxLines}`
  const cached = headCache.get(path)
  if (cached?.signature === signature) return cached.objects
  const objects = await readHead(path, maxLines)
  headCache.delete(path) // re-inserted last: the oldest entries are the ones dropped
  headCache.set(path, { signature, objects })
  if (headCache.size > MAX_CACHED_HEADS) headCache.delete(headCache.keys().next().value ?? '')
  return objects
}

async function readHead(path: string, maxLines: number): Promise<Record<string, unknown>[]> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(HEAD_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0)
    const lines = buffer.subarray(0, bytesRead).toString('utf8').split('\n')
    if (bytesRead === HEAD_BYTES) lines.pop() // the last one may be cut
    const objects: Record<string, unknown>[] = []
    for (const line of lines.slice(0, maxLines)) {
      try {
        const value: unknown = JSON.parse(line)
        if (value && typeof value === 'object' && !Array.isArray(value)) objects.push(value as Record<string, unknown>)
      } catch {
        // a garbled line says nothing about the file; the importer reports it
      }
    }
    return objects
  } finally {
    await handle.close()
  }
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
