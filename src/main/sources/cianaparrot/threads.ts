import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { SnapshotSession } from '../adapter'
import type { GraphThread } from '../langgraph/checkpoint-db'
import { threadSessions } from '../langgraph/thread-records'
import type { SourceRecord } from '../records'
import type { ScheduledTask } from './agent-state'
import { withFileCalls } from './file-calls'
import { readSessionLog, type LogEntry } from './session-log'
import { parseThreadId, previousThreadId } from './thread-ids'

/**
 * A CianaParrot thread as Retrace sessions: the LangGraph thread (and its time-travel branches),
 * linked to the session it continues after `/new`, a scheduler thread named after its task, and
 * the session log merged in where it holds more than the checkpoints (a database restored from
 * a backup loses the newest turns; the log, appended by the router, keeps them).
 */
export function cianaParrotSessions(thread: GraphThread, context: { dataDir: string; threadIds: ReadonlySet<string>; tasks: ReadonlyMap<string, ScheduledTask> }): { sessions: SnapshotSession[]; problems: string[] } {
  const problems: string[] = []
  const id = parseThreadId(thread.threadId)
  const previous = previousThreadId(id)
  const logPath = join(context.dataDir, 'sessions', `${thread.threadId}.jsonl`)
  const log = fileStamp(logPath) ? readSessionLog(logPath) : null
  if (log) problems.push(...log.problems)
  const sessions = threadSessions(thread).map((session): SnapshotSession => {
    if (session.key !== thread.threadId) return { ...session, records: withFileCalls(session.records, session.forkedFrom?.messageUid ?? null) }
    const records = withFileCalls(session.records, null)
    if (id.kind === 'scheduler') {
      const task = context.tasks.get(id.taskId)
      records.push({ kind: 'session-meta', offset: records.length, title: task ? `Scheduled: ${task.prompt}` : `Scheduled task ${id.taskId}`, titleOrigin: 'custom' })
    }
    if (log) records.push(...logBeyondCheckpoints(records, log.entries))
    return {
      ...session,
      records,
      ...(previous && context.threadIds.has(previous) ? { continues: previous } : {}),
      // The log is part of what this session shows: its growth re-imports the session.
      fingerprint: createHash('sha256').update(`${session.fingerprint}|${fileStamp(logPath) ?? ''}`).digest('hex')
    }
  })
  return { sessions, problems }
}

/**
 * The log's turns the checkpoints do not have: everything from the first user entry past the
 * checkpoints' last prompt. Both come from the same conversation in the same order, so the n-th
 * prompt of one is the n-th of the other.
 */
function logBeyondCheckpoints(records: SourceRecord[], entries: LogEntry[]): SourceRecord[] {
  const prompts = records.filter((record) => record.kind === 'message' && record.startsTurn).length
  let seen = 0
  const from = entries.findIndex((entry) => entry.role === 'user' && ++seen > prompts)
  if (from < 0) return []
  let offset = records.length
  return entries.slice(from).map((entry): SourceRecord => ({
    kind: 'message',
    offset: offset++,
    uid: null,
    parentUid: null,
    agentId: null,
    startsTurn: entry.role === 'user',
    role: entry.role,
    content: entry.content,
    ...(entry.ts !== undefined ? { createdAt: entry.ts } : {})
  }))
}

function fileStamp(path: string): string | null {
  try {
    const stats = statSync(path)
    return `${stats.size}:${stats.mtimeMs}`
  } catch {
    return null
  }
}
