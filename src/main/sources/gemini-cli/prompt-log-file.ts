import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { HistoryFile, SnapshotRead } from '../adapter'
import { epochOf } from './parts'
import { promptLogRecords, promptLogSessions, readPromptLog } from './prompt-log'

export const PROMPT_LOG = 'logs.json'
/** Gemini CLI writes the log a few milliseconds before the session's recording: a newer session waits. */
export const SETTLE_MS = 60_000
const RECORDING = /^session-.+-([0-9a-f]{8})\.jsonl?$/

/**
 * The sessions of a project's `logs.json` that have no chat recording in its `chats/` folder
 * (named `session-<time>-<first 8 characters of the id>.json(l)`). A session with a recording is
 * read from the recording alone: it holds every prompt the log does, at the same times to within
 * a few milliseconds (the log is written just before), so the log adds nothing to it. Keyed
 * `prompt-log:<id>`, apart from recorded sessions, so neither can take the other's place.
 */
export function readPromptLogFile(file: HistoryFile, now = Date.now()): SnapshotRead {
  let text: string
  try {
    text = readFileSync(file.path, 'utf8')
  } catch (error) {
    return { sessions: [], problems: [`Gemini CLI logs.json not readable: ${error instanceof Error ? error.message : String(error)}`] }
  }
  const { entries, problems } = readPromptLog(text)
  const recorded = recordedPrefixes(join(dirname(file.path), 'chats'))
  const sessions: SnapshotRead['sessions'] = []
  for (const [sessionId, list] of promptLogSessions(entries)) {
    if (recorded.has(sessionId.slice(0, 8))) continue
    const last = epochOf(list.at(-1)?.timestamp)
    // Its recording may be on its way (discover.ts reads the log again once it settles).
    if (last !== undefined && now - last < SETTLE_MS) continue
    const records = promptLogRecords(sessionId, list)
    const startedAt = epochOf(list[0]?.timestamp)
    const fingerprint = JSON.stringify(list.map((entry) => [entry.index, entry.timestamp, entry.message]))
    sessions.push({ key: `prompt-log:${sessionId}`, fingerprint, forkedFrom: null, startedAt, records })
  }
  // Bad entries belong to no one session: reported once per read, with the file.
  const reasons = problems.map((problem) => problem.reason)
  return { sessions, problems: reasons }
}

/** The 8-character id prefixes of the chat recordings beside the log. */
export function recordedPrefixes(chats: string): Set<string> {
  let names: string[]
  try {
    names = readdirSync(chats)
  } catch {
    return new Set()
  }
  return prefixesOf(names)
}

export function prefixesOf(names: string[]): Set<string> {
  return new Set(names.flatMap((name) => RECORDING.exec(name)?.[1] ?? []))
}
