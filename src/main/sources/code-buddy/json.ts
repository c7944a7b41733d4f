import { readFileSync, statSync } from 'node:fs'
import { isRecord } from '../plain-data'

/** Larger files are reported rather than read: Code Buddy rewrites a session whole, so none should be. */
const MAX_FILE_BYTES = 256 * 1024 * 1024

export type JsonRead = { ok: true; value: unknown } | { ok: false; problem: string }

/**
 * One of Code Buddy's JSON files, read-only. A file Code Buddy was still writing (it writes the
 * whole file each save), an empty one or a garbled one is a problem to report, never a throw.
 */
export function readJsonFile(path: string): JsonRead {
  let text: string
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return { ok: false, problem: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, not read` }
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { ok: false, problem: `not readable (${error instanceof Error ? error.message : String(error)})` }
  }
  if (text.trim() === '') return { ok: false, problem: 'empty file' }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, problem: `not valid JSON, cut short or garbled (${error instanceof Error ? error.message : String(error)})` }
  }
}


/** An ISO date string as epoch ms; undefined for anything else (`"last Tuesday"`, a number). */
export function isoTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  const time = Date.parse(value)
  return Number.isFinite(time) && time >= 0 ? time : undefined
}

/** JSON with sorted keys: two messages are "the same" when their contents are, whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner) ? Object.fromEntries(Object.keys(inner).sort().map((key) => [key, inner[key]])) : inner
  )
}

/** What a value is, for a problem message ("a string", "null", "an array"). */
export function describeType(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  return `a ${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ''}`.trimEnd()
}
