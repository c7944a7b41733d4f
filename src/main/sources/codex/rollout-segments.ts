import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { zstdDecompressSync } from 'node:zlib'
import type { HistoryFile } from '../adapter'
import { COMPRESSED_SUFFIX, isCompressed } from '../compressed-files'

/**
 * Codex rotates a long thread's rollout into segments (codex-rs/thread-store/src/local/
 * segment_writer.rs): it copies the rollout whole to an immutable path
 * `<CODEX_HOME>/<rotated segments folder>/<thread id>/<segment id, or "initial">/<file name>`,
 * then replaces the rollout with a new file whose first lines are a `session_meta` of the same
 * thread and a `rollout_reference` naming that copy. Codex reads a thread as the concatenation
 * of its segments (codex-rs/rollout: `materialize_rollout_lines`), each after its header lines.
 */

/** The segment a rollout continues: named by its second line, a `rollout_reference` of the same thread. */
export interface SegmentReference {
  path: string
  /** The referenced segment's `segment_id` (null: a rollout written before segment ids, Codex's "initial"). */
  segmentId: string | null
  /** Where the rollout's own lines start: past the reference line. */
  end: number
}

/** More than a session_meta line holds (its base instructions are a few KB; tools can add more). */
const MAX_HEADER_BYTES = 4 * 1024 * 1024
/** The first read: most session_meta lines fit. */
const FIRST_READ_BYTES = 64 * 1024
/** Codex's bound on a reference graph (MAX_ROLLOUT_REFERENCE_DEPTH); it observed 116 segments on one thread. */
export const MAX_SEGMENTS = 256
/** `nth_user_message` of a "snapshot" seal (usize::MAX): the whole segment, like none. */
const WHOLE_SEGMENT = 2 ** 53

/**
 * A rotated segment, by where it is: a rollout two folders below a folder named by its own
 * thread id (`<thread>/<segment>/rollout-…-<thread>.jsonl`). Codex keeps rollouts by date under
 * `sessions/` and flat under `archived_sessions/`, so no rollout it reads as a thread is there.
 */
export function isRotatedSegment(path: string): boolean {
  const thread = /-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(\.zst)?$/i.exec(basename(path))?.[1]
  return thread !== undefined && basename(dirname(dirname(path))).toLowerCase() === thread.toLowerCase()
}

/**
 * The segment the rollout continues, when its first line is the thread's `session_meta` and its
 * second a `rollout_reference` of the same thread taking the segment whole (as rotation writes
 * it). A reference to another thread (a fork's history), or to part of a segment, is not one.
 */
export function referencedSegment(path: string, threadId: string): SegmentReference | null {
  const lines = leadingLines(path, 2)
  const [meta, reference] = lines.map((line) => parseObject(line.text))
  if (meta?.type !== 'session_meta' || reference?.type !== 'rollout_reference' || !lines[1]) return null
  const payload = reference.payload as Record<string, unknown> | undefined
  if (!payload || typeof payload.rollout_path !== 'string' || payload.thread_id !== threadId) return null
  const nth = payload.nth_user_message
  if ((nth !== null && nth !== undefined && !(typeof nth === 'number' && nth >= WHOLE_SEGMENT)) || !isNullish(payload.compacted_replacement_history_filter_texts)) return null
  return { path: payload.rollout_path, segmentId: typeof payload.segment_id === 'string' ? payload.segment_id : null, end: lines[1].end }
}

/** The referenced file where it is: as named, or compressed (or decompressed) beside it. */
export function existingSegmentPath(path: string): string | null {
  const other = isCompressed(path) ? path.slice(0, -COMPRESSED_SUFFIX.length) : `${path}${COMPRESSED_SUFFIX}`
  return existsSync(path) ? path : existsSync(other) ? other : null
}

function isNullish(value: unknown): boolean {
  return value === null || value === undefined
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The first `count` complete lines of a rollout (decoded bytes, if compressed), each with the
 * offset after it. Synchronous: import planning asks for a rollout's segments when it finds the
 * rollout replaced. A compressed one is decoded whole: only a rotated one is asked (rare).
 */
function leadingLines(path: string, count: number): { text: string; end: number }[] {
  let window = FIRST_READ_BYTES
  for (;;) {
    const head = isCompressed(path) ? zstdDecompressSync(readFileSync(path)).subarray(0, window) : plainHead(path, window)
    const lines: { text: string; end: number }[] = []
    let start = 0
    for (let newline = head.indexOf(10); newline !== -1 && lines.length < count; newline = head.indexOf(10, start)) {
      lines.push({ text: head.subarray(start, newline).toString('utf8'), end: newline + 1 })
      start = newline + 1
    }
    if (lines.length === count || head.length < window || window >= MAX_HEADER_BYTES) return lines
    window *= 4
  }
}

function plainHead(path: string, bytes: number): Buffer {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.allocUnsafe(bytes)
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0))
  } finally {
    closeSync(fd)
  }
}

/** What a rollout's first two lines say: its thread, its segment id, the segment it continues. */
interface RolloutHead {
  id: string
  segmentId: string | null
  previous: SegmentReference | null
}

/**
 * Heads read, by path and what the file was then: a segment never changes, and live following
 * asks for a rotated rollout's segments every few seconds (a thread can have a hundred).
 */
const heads = new Map<string, { signature: string; head: RolloutHead | null }>()
const MAX_HEADS = 4096

function rolloutHead(path: string): RolloutHead | null {
  const { ino, size, mtimeMs } = statSync(path)
  const signature = `${ino}:${size}:${mtimeMs}`
  const known = heads.get(path)
  if (known?.signature === signature) return known.head
  const head = readRolloutHead(path)
  heads.delete(path)
  heads.set(path, { signature, head })
  for (const oldest of heads.keys()) {
    if (heads.size <= MAX_HEADS) break
    heads.delete(oldest)
  }
  return head
}

function readRolloutHead(path: string): RolloutHead | null {
  const [first] = leadingLines(path, 1)
  const meta = first && parseObject(first.text)
  const payload = meta?.type === 'session_meta' ? (meta.payload as Record<string, unknown> | undefined) : undefined
  if (!payload || typeof payload.id !== 'string') return null
  return { id: payload.id, segmentId: typeof payload.segment_id === 'string' ? payload.segment_id : null, previous: referencedSegment(path, payload.id) }
}

/**
 * The segments a rollout continues, oldest first, following each one's reference to the one
 * before (as Codex does, checking the thread and segment id each names): HistoryFile.segments,
 * or undefined when it continues none. A segment that cannot be found or is not the one named
 * ends the chain: the oldest found is read whole, its reference line counted as not read.
 */
export function segmentsOf(path: string): HistoryFile['segments'] {
  let head: RolloutHead | null
  try {
    head = rolloutHead(path)
  } catch {
    return undefined // unreadable: its import reports it
  }
  if (!head?.previous) return undefined
  const pieces: { path: string; from: number }[] = []
  const seen = new Set<string>([path])
  for (let reference: SegmentReference | null = head.previous; reference && pieces.length < MAX_SEGMENTS; ) {
    const segmentPath = existingSegmentPath(reference.path)
    if (!segmentPath || seen.has(segmentPath)) break
    let segment: RolloutHead | null
    try {
      segment = rolloutHead(segmentPath)
    } catch {
      break
    }
    if (!segment || segment.id !== head.id || segment.segmentId !== reference.segmentId) break
    seen.add(segmentPath)
    pieces.unshift({ path: segmentPath, from: segment.previous?.end ?? 0 })
    reference = segment.previous
  }
  const [oldest] = pieces
  if (!oldest) return undefined
  oldest.from = 0
  return { pieces, from: head.previous.end }
}
