import type { SkippedRecord, SourceRecord } from '../records'
import { asObject, asString, epochOf } from './parts'

/** Longest title taken from a first prompt, in characters. */
const TITLE_LENGTH = 100

/** One line of `logs.json` (`LogEntry` of packages/core/src/core/logger.ts). */
export interface PromptLogEntry {
  sessionId: string
  messageId: number
  timestamp: string
  message: string
  /** Index in the file's array: the place of a skipped entry, and the order of equal times. */
  index: number
}

/**
 * `<project>/logs.json`, Gemini CLI's prompt log (`Logger.logMessage`): one JSON array, rewritten
 * whole on each prompt, of `{sessionId, messageId, type: "user", message, timestamp}` for every
 * input typed in every session of the project — slash commands too, before they run. Entries
 * are kept the way Gemini CLI's own `_readLogFile` keeps them (all five fields of their types);
 * others are skipped with a reason, and a file that is no array is one problem. Pure.
 */
export function readPromptLog(text: string): { entries: PromptLogEntry[]; problems: SkippedRecord[] } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { entries: [], problems: [{ kind: 'skipped', offset: 0, reason: 'Gemini CLI logs.json is not valid JSON (cut short?)' }] }
  }
  if (!Array.isArray(parsed)) return { entries: [], problems: [{ kind: 'skipped', offset: 0, reason: 'Gemini CLI logs.json is not a JSON array' }] }
  const entries: PromptLogEntry[] = []
  const problems: SkippedRecord[] = []
  parsed.forEach((value: unknown, index) => {
    const entry = asObject(value)
    const sessionId = entry ? asString(entry.sessionId) : undefined
    const timestamp = entry ? asString(entry.timestamp) : undefined
    const message = entry ? asString(entry.message) : undefined
    const messageId = entry?.messageId
    if (!entry || sessionId === undefined || timestamp === undefined || message === undefined || typeof messageId !== 'number' || typeof entry.type !== 'string') {
      problems.push({ kind: 'skipped', offset: index, reason: `Gemini CLI logs.json entry ${index} lacks sessionId, messageId, type, message or timestamp` })
      return
    }
    entries.push({ sessionId, messageId, timestamp, message, index })
  })
  return { entries, problems }
}

/** The log's entries by session, each session's in the order typed (time, then place in the file). */
export function promptLogSessions(entries: PromptLogEntry[]): Map<string, PromptLogEntry[]> {
  const sessions = new Map<string, PromptLogEntry[]>()
  for (const entry of entries) sessions.set(entry.sessionId, [...(sessions.get(entry.sessionId) ?? []), entry])
  for (const list of sessions.values()) list.sort((a, b) => (epochOf(a.timestamp) ?? 0) - (epochOf(b.timestamp) ?? 0) || a.index - b.index)
  return sessions
}

/**
 * A session Gemini CLI logged but kept no chat recording of (versions before recordings, or
 * recording turned off): its prompts, each opening a turn at the time it was typed, without
 * answers — a system line first says so. Slash commands (`/…`, `?`) are system lines, as in a
 * recording (session-records.ts). Pure.
 */
export function promptLogRecords(sessionId: string, entries: PromptLogEntry[]): SourceRecord[] {
  const first = entries[0]
  const createdAt = first ? epochOf(first.timestamp) : undefined
  const time = createdAt !== undefined ? { createdAt } : {}
  const prompts = entries.filter((entry) => !isCommand(entry.message))
  const title = (prompts[0]?.message ?? first?.message ?? '').trim().split('\n', 1)[0] ?? ''
  const records: SourceRecord[] = [
    {
      kind: 'session-meta',
      offset: 0,
      sessionId,
      ...time,
      ...(title ? { title: title.length > TITLE_LENGTH ? `${title.slice(0, TITLE_LENGTH - 1)}…` : title, titleOrigin: 'first-prompt' as const } : {})
    },
    {
      kind: 'message',
      offset: 0,
      uid: `${sessionId}#log`,
      parentUid: null,
      agentId: null,
      startsTurn: false,
      role: 'system',
      ...time,
      content: 'Gemini CLI kept no chat recording of this session: only its prompts, from logs.json (no answers, tool calls or file changes).'
    }
  ]
  for (const entry of entries) {
    const at = epochOf(entry.timestamp)
    const prompt = !isCommand(entry.message)
    records.push({
      kind: 'message',
      offset: entry.index + 1,
      uid: `${sessionId}#log${entry.index}`,
      parentUid: null,
      agentId: null,
      startsTurn: prompt,
      role: prompt ? 'user' : 'system',
      content: entry.message,
      ...(at !== undefined ? { createdAt: at } : time)
    })
  }
  return records
}

function isCommand(message: string): boolean {
  return /^[/?]/.test(message.trim())
}
