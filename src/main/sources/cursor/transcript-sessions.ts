import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { SnapshotRead, SnapshotSession } from '../adapter'
import { agentTranscriptRecords } from './agent-transcript'
import { subagentTranscripts } from './cli-discover'

/**
 * An agent transcript and its sub-agents' (`<id>/subagents/*.jsonl`, each a child session of
 * kind sub-agent). Read whole: the files are small and a sub-agent's can change with its parent's.
 */
export function readTranscriptSessions(path: string): SnapshotRead {
  const problems: string[] = []
  const main = transcriptSession(path, null, problems)
  if (!main) return { sessions: [], problems }
  const children = subagentTranscripts(path).flatMap((child) => transcriptSession(child, main.key, problems) ?? [])
  return { sessions: [main, ...children], problems }
}

function transcriptSession(path: string, parent: string | null, problems: string[]): SnapshotSession | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    problems.push(`${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`)
    return null
  }
  const key = basename(path, '.jsonl')
  const records = agentTranscriptRecords(text, key)
  const firstTime = records.find((record) => record.kind === 'message' && record.createdAt !== undefined)
  const startedAt = firstTime?.kind === 'message' ? firstTime.createdAt : undefined
  records.unshift({ kind: 'session-meta', offset: 0, sessionId: key, ...(parent ? { parent: { sessionId: parent, kind: 'sub-agent' as const } } : {}) })
  return { key, fingerprint: createHash('sha256').update(text).digest('hex'), forkedFrom: null, startedAt, records }
}
