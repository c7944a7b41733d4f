import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { HistoryFile, SnapshotRead, SnapshotSession } from '../adapter'
import { splitHistory, type HistorySession } from './history-blocks'
import { sessionRecords } from './session-records'

/** Larger chat histories are not read (Aider's own, after two years of daily use, is 4 MB). */
const MAX_BYTES = 256 * 1024 * 1024
const STARTED = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/**
 * A chat history file read whole, read-only: one session per `# aider chat started at` header.
 * A session's key is the byte offset of its header (the file is only appended to, so it never
 * moves) and its fingerprint the hash of its bytes: when Aider appends, only the last session
 * changes and is imported again.
 */
export function readChatHistory(file: HistoryFile): SnapshotRead {
  let bytes: Buffer
  try {
    bytes = readFileSync(file.path)
  } catch (error) {
    return { sessions: [], problems: [`cannot read ${file.path}: ${(error as Error).message}`] }
  }
  if (bytes.length > MAX_BYTES) return { sessions: [], problems: [`${file.path} is larger than ${MAX_BYTES} bytes: not read`] }
  return historySessions(bytes)
}

/** The sessions of a history's bytes (pure: the tests feed it damaged copies). */
export function historySessions(bytes: Buffer): SnapshotRead {
  const sessions: SnapshotSession[] = []
  const problems: string[] = []
  for (const session of splitHistory(bytes.toString('utf8'))) {
    const key = keyOf(session)
    const startedAt = startTime(session.startedAt)
    if (session.startedAt !== null && startedAt === undefined) problems.push(`offset ${session.offset}: unreadable start time "${session.startedAt}", session kept without it`)
    const records = sessionRecords(session, key, startedAt)
    if (!records) continue
    const fingerprint = createHash('sha256').update(bytes.subarray(session.offset, session.end)).digest('hex')
    sessions.push({ key, fingerprint, forkedFrom: null, startedAt, records })
  }
  return { sessions, problems }
}

/** `aider@<offset>`: the header's place in the file. */
function keyOf(session: HistorySession): string {
  return `aider@${session.offset}`
}

/** The header's local time (Aider writes `datetime.now()` without a zone) as epoch milliseconds. */
function startTime(text: string | null): number | undefined {
  const match = text === null ? null : STARTED.exec(text)
  if (!match) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number]
  const time = new Date(year, month - 1, day, hour, minute, second).getTime()
  return Number.isFinite(time) ? time : undefined
}
