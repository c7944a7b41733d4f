import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** One key of the agent's memory (`memory_write` sets it, `memory_read` gets it). */
export interface MemoryEntry {
  /** Dotted key, e.g. `user.preferences.timezone`. */
  key: string
  /** The value as text: the seed's values are strings; any other JSON value is shown as its JSON text. */
  value: string
}

export interface HeadlessMemory {
  /** Sorted by key; empty when the file is missing or unreadable. */
  entries: MemoryEntry[]
  /** Why the file could not be read (a missing file is not a problem: the agent writes it on first use). */
  problems: string[]
}

/** memory.json is a flat key-value map; a file far larger is not the agent's. */
const MAX_MEMORY_BYTES = 16 * 1024 * 1024

/**
 * The agent's key-value memory, `<home>/memory.json` (seed ch. 6 › Memory). It is agent state
 * shared by all sessions, not a session, so it is not imported into a transcript: this only
 * reads it (read-only, never throws) for whoever shows it.
 */
export function readHeadlessMemory(home: string): HeadlessMemory {
  const path = join(home, 'memory.json')
  let text: string
  try {
    const stats = statSync(path)
    if (!stats.isFile()) return { entries: [], problems: ['memory.json is not a file'] }
    if (stats.size > MAX_MEMORY_BYTES) return { entries: [], problems: [`memory.json is larger than ${MAX_MEMORY_BYTES} bytes: not read`] }
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] }
    return { entries: [], problems: [`memory.json cannot be read: ${(error as Error).message}`] }
  }
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch (error) {
    return { entries: [], problems: [`memory.json is not valid JSON (${(error as Error).message}): no memory keys read`] }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { entries: [], problems: ['memory.json is not a JSON object of keys: no memory keys read'] }
  const entries = Object.entries(value as Record<string, unknown>)
    .map(([key, v]) => ({ key, value: typeof v === 'string' ? v : JSON.stringify(v) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return { entries, problems: [] }
}
