import { readFileSync } from 'node:fs'

/** One line of `data/sessions/{thread_id}.jsonl` (seed 000, "Session Logs"). */
export interface LogEntry {
  role: 'user' | 'assistant'
  content: string
  ts: number | undefined
  channel: string | null
  userId: string | null
}

/**
 * A thread's session log, line by line: entries, and the lines that could not be used (bad
 * JSON, a last line cut off mid-write, an unknown role), each with its line number.
 */
export function readSessionLog(path: string): { entries: LogEntry[]; problems: string[] } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { entries: [], problems: [`${path} cannot be read (${(error as Error).message})`] }
  }
  const entries: LogEntry[] = []
  const problems: string[] = []
  const lines = text.split('\n')
  const complete = text.endsWith('\n') ? lines.slice(0, -1) : lines
  complete.forEach((line, index) => {
    if (!line.trim()) return
    const lastUnfinished = index === complete.length - 1 && !text.endsWith('\n')
    let value: unknown
    try {
      value = JSON.parse(line) as unknown
    } catch {
      problems.push(`${path}, line ${index + 1}: ${lastUnfinished ? 'cut off (no newline at the end: still being written, or truncated)' : 'not valid JSON'}`)
      return
    }
    const entry = logEntry(value)
    if (entry) entries.push(entry)
    else problems.push(`${path}, line ${index + 1}: not a session log entry (role "user" or "assistant" and a content string)`)
  })
  return { entries, problems }
}

function logEntry(value: unknown): LogEntry | null {
  if (value === null || typeof value !== 'object') return null
  const { role, content, ts, channel, user_id: userId } = value as Record<string, unknown>
  if ((role !== 'user' && role !== 'assistant') || typeof content !== 'string') return null
  const time = typeof ts === 'string' ? Date.parse(ts) : NaN
  return { role, content, ts: Number.isFinite(time) ? time : undefined, channel: typeof channel === 'string' ? channel : null, userId: typeof userId === 'string' ? userId : null }
}
