import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { SnapshotRead, SnapshotSession } from '../adapter'
import { agentTranscriptRecords } from './agent-transcript'
import { readSidecar, sidecarOf, subagentTranscripts } from './cli-discover'
import { textTranscriptRecords } from './text-transcript'

/**
 * An agent transcript and its sub-agents' (`<id>/subagents/*.jsonl`, each a child session of
 * kind sub-agent). Read whole: the files are small and a sub-agent's can change with its parent's.
 */
export function readTranscriptSessions(path: string, cwd: string | null): SnapshotRead {
  const problems: string[] = []
  const sidecarPath = sidecarOf(path, idOf(path), cwd)
  const main = transcriptSession(path, null, problems, sidecarPath ? readSidecar(sidecarPath) : null)
  if (!main) return { sessions: [], problems }
  const children = subagentTranscripts(path).flatMap((child) => transcriptSession(child, main.key, problems) ?? [])
  return { sessions: [main, ...children], problems }
}

const idOf = (path: string) => basename(path).replace(/\.(jsonl|txt)$/, '')
/**
 * A transcript's session key. The editor's agent writes transcripts of conversations its store
 * also holds, under the same id: a key of their own keeps the two apart (the same id would make
 * them one session, each message twice) until they can be told apart cheaply.
 */
const keyOf = (path: string) => `transcript:${idOf(path)}`

function transcriptSession(path: string, parent: string | null, problems: string[], sidecar: Record<string, unknown> | null = null): SnapshotSession | null {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    problems.push(`${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`)
    return null
  }
  const key = keyOf(path)
  const records = path.endsWith('.txt') ? textTranscriptRecords(text, idOf(path)) : agentTranscriptRecords(text, idOf(path))
  const firstTime = records.find((record) => record.kind === 'message' && record.createdAt !== undefined)
  // The transcript's lines carry no session time; meta.json's `createdAtMs` does, else the first `<timestamp>`.
  const created = typeof sidecar?.createdAtMs === 'number' && sidecar.createdAtMs > 0 ? sidecar.createdAtMs : undefined
  const startedAt = created ?? (firstTime?.kind === 'message' ? firstTime.createdAt : undefined)
  const title = typeof sidecar?.title === 'string' && sidecar.title.trim() && sidecar.title !== 'New Agent' ? sidecar.title.trim() : undefined
  records.unshift({
    kind: 'session-meta',
    offset: 0,
    sessionId: key,
    ...(title ? { title, titleOrigin: 'ai' as const } : {}),
    ...(startedAt !== undefined ? { createdAt: startedAt } : {}),
    ...(parent ? { parent: { sessionId: parent, kind: 'sub-agent' as const } } : {})
  })
  const fingerprint = createHash('sha256').update(text).update(JSON.stringify(sidecar)).digest('hex')
  return { key, fingerprint, forkedFrom: null, startedAt, records }
}
