import { createHash } from 'node:crypto'
import { join, relative, resolve } from 'node:path'
import type { SnapshotSession } from '../adapter'
import { isWithin } from '../files'
import type { SessionMetaRecord } from '../records'
import { indexOf } from './links'
import { lastUidOf } from './message-records'
import { sessionRecords, type AssemblyContext } from './session-records'
import { type SessionInput } from './session-input'
import type { SessionRow, StoreDb } from './store-db'
import { readTranscript } from './transcripts'
import { workingDirs } from './working-dir'

/**
 * Which sessions one import takes: every session of the store, when the workspace is the y-agent
 * data folder itself; or those whose tree worked in the workspace (project).
 */
export type ImportScope = { mode: 'store' } | { mode: 'project'; cwd: string }

/**
 * y-agent's six session types as Retrace's kinds. `canonical` (CanonicalSessionManager's merge of
 * a conversation's channel sessions) becomes a top-level `main`: it is the conversation the user
 * holds across channels, not a fork or a spawn of another session; its channel sessions (y-agent
 * `child` rows below it) are its children.
 */
const KINDS: Record<string, 'main' | 'branch' | 'child' | 'sub-agent' | 'ephemeral'> = {
  main: 'main',
  canonical: 'main',
  branch: 'branch',
  child: 'child',
  sub_agent: 'sub-agent',
  ephemeral: 'ephemeral'
}

/** The sessions of a store (in scope) as snapshot sessions, and what is wrong with the store. */
export function storeSessions(dataDir: string, db: StoreDb, scope: ImportScope): { sessions: SnapshotSession[]; problems: string[] } {
  const problems = [...db.problems]
  const dirs = workingDirs(db)
  const known = new Set([...dirs.values()].filter((dir): dir is string => dir !== null))
  // A tree that touched no file is the project's when the store knows only that project.
  const inScope = (session: SessionRow) => {
    if (scope.mode === 'store') return true
    const dir = dirs.get(session.id) ?? null
    return dir === scope.cwd || (dir === null && known.size === 1 && known.has(scope.cwd))
  }
  const inputs = new Map(db.sessions.filter(inScope).map((session) => [session.id, readInput(session, dataDir)]))
  const byId = new Map(db.sessions.map((session) => [session.id, session]))
  const hashes = writtenHashes(db)
  const context: AssemblyContext = {
    db,
    dataDir,
    projectRootOf: (id) => dirs.get(id) ?? null,
    pathFor: (id, path) => {
      const root = dirs.get(id)
      // The data folder opened as a workspace: paths are shown relative to the project they are in.
      // Rewinds are refused there (sources/agent-store-folders.ts): they would land in the data folder.
      return scope.mode === 'store' && root && isWithin(path, root) && path !== root ? relative(root, path) : path
    },
    writtenHashes: (path) => hashes.get(path) ?? new Set()
  }
  const subAgentCalls = delegations(db, inputs)
  const built: { session: SessionRow; meta: Omit<SessionMetaRecord, 'kind' | 'offset'>; records: SnapshotSession['records'] }[] = []
  for (const input of [...inputs.values()].sort((a, b) => (a.session.createdAt ?? 0) - (b.session.createdAt ?? 0))) {
    const session = input.session
    const meta: Omit<SessionMetaRecord, 'kind' | 'offset'> = {
      sessionId: session.id,
      ...(session.title ? { title: session.title, titleOrigin: 'ai' as const } : {}),
      ...(session.createdAt !== undefined ? { createdAt: session.createdAt } : {}),
      ...(scope.mode === 'project' ? { cwd: scope.cwd } : {})
    }
    const kind = KINDS[session.type]
    if (!kind) problems.push(`session ${session.id} has the unknown session_type "${session.type}": it is imported as a main session`)
    const parent = session.parentId ? byId.get(session.parentId) : undefined
    if (session.parentId && !parent) {
      problems.push(`session ${session.id} (${session.type}, depth ${session.depth}) names parent ${session.parentId}, which is not in session_metadata: it is imported as a top-level session`)
    }
    if (parent && kind === 'branch') {
      meta.forkedFrom = { sessionId: parent.id, messageUid: forkPoint(input, inputs.get(parent.id)) }
    } else if (parent && (kind === 'child' || kind === 'sub-agent' || kind === 'ephemeral')) {
      const toolCallId = subAgentCalls.get(session.id)
      meta.parent = { sessionId: parent.id, kind, ...(toolCallId ? { toolCallId } : {}) }
    } else if (kind === 'ephemeral') {
      meta.parent = { sessionId: session.parentId ?? '', kind }
    }
    built.push({ session, meta, records: sessionRecords(input, meta, context) })
  }
  return { sessions: withFingerprints(built), problems }
}

function readInput(session: SessionRow, dataDir: string): SessionInput {
  const problems: string[] = []
  let contextPath = resolve(dataDir, session.transcriptPath || `transcripts/${session.id}.jsonl`)
  // The row names the file: never read outside the data folder.
  if (!isWithin(contextPath, dataDir) || !contextPath.endsWith('.jsonl')) {
    problems.push(`session ${session.id}: its transcript_path ${JSON.stringify(session.transcriptPath)} is not a .jsonl file in the data folder; transcripts/${session.id}.jsonl is read instead`)
    contextPath = join(dataDir, 'transcripts', `${session.id}.jsonl`)
  }
  const displayPath = contextPath.replace(/\.jsonl$/, '.display.jsonl')
  const label = (path: string) => relative(dataDir, path)
  const context = readTranscript(contextPath, label(contextPath))
  const display = readTranscript(displayPath, label(displayPath))
  problems.push(...(display?.problems ?? []), ...(context?.problems ?? []))
  // An ephemeral session has "no persistence": no transcript is what it should have.
  if (session.type !== 'ephemeral') {
    if (!display && !context) problems.push(`session ${session.id}: its transcripts ${label(contextPath)} and ${label(displayPath)} are missing; its turns are rebuilt from its traces`)
    else if (!display) problems.push(`session ${session.id}: its display transcript ${label(displayPath)} is missing; its context transcript is shown instead`)
    else if (!context) problems.push(`session ${session.id}: its context transcript ${label(contextPath)} is missing`)
  }
  return { session, display: display?.lines ?? context?.lines ?? null, context: context?.lines ?? null, problems }
}

/**
 * Where a branch leaves its parent: y-agent copies the parent's lines verbatim (same message
 * ids) up to the fork index, so the fork point is the last line both transcripts share.
 */
function forkPoint(branch: SessionInput, parent: SessionInput | undefined): string | null {
  const mine = branch.display ?? []
  const theirs = parent?.display ?? []
  let shared = 0
  while (shared < mine.length && shared < theirs.length && mine[shared]?.messageId && mine[shared]?.messageId === theirs[shared]?.messageId) shared += 1
  const last = theirs[shared - 1]
  return last ? lastUidOf(last) : null
}

/**
 * The tool call that started each sub-agent session: the `sub_agent` observation names the
 * child session, and completes when its result line is written in the parent's transcript.
 */
function delegations(db: StoreDb, inputs: Map<string, SessionInput>): Map<string, string> {
  const index = indexOf(db)
  const calls = new Map<string, string>()
  for (const observation of db.observations) {
    const child = observation.metadata.child_session_id
    if (observation.type !== 'sub_agent' || typeof child !== 'string') continue
    const parent = observation.sessionId ?? index.trace.get(observation.traceId)?.sessionId
    const line = (parent ? inputs.get(parent)?.display : undefined)?.find((candidate) => candidate.role === 'tool' && candidate.timestamp === observation.completedAt)
    if (line?.toolCallId) calls.set(child, line.toolCallId)
  }
  return calls
}

/** Hashes of contents known to have been written to each path: later entries' originals, rollback conflicts' expectations. */
function writtenHashes(db: StoreDb): Map<string, Set<string>> {
  const hashes = new Map<string, Set<string>>()
  const add = (path: string, hash: string | null) => {
    if (!hash) return
    const set = hashes.get(path) ?? new Set<string>()
    set.add(hash.toLowerCase())
    hashes.set(path, set)
  }
  for (const entry of db.entries) add(entry.filePath, entry.originalHash)
  for (const rollback of db.rollbacks) for (const conflict of rollback.conflicts) add(conflict.filePath, conflict.expectedHash)
  return hashes
}

/**
 * A session's fingerprint covers its records and its parent's fingerprint: a session hanging
 * below another (a child, a sub-agent, a branch) is written again whenever its parent is, so its
 * link to the parent's new row is made again too.
 */
function withFingerprints(built: { session: SessionRow; meta: Omit<SessionMetaRecord, 'kind' | 'offset'>; records: SnapshotSession['records'] }[]): SnapshotSession[] {
  const own = new Map(built.map((item) => [item.session.id, createHash('sha256').update(JSON.stringify(item.records)).digest('hex')]))
  const parentOf = new Map(built.map((item) => [item.session.id, item.meta.forkedFrom?.sessionId ?? item.meta.parent?.sessionId ?? null]))
  const memo = new Map<string, string>()
  const fingerprint = (id: string, seen: Set<string>): string => {
    const done = memo.get(id)
    if (done) return done
    const parent = parentOf.get(id)
    const chained = parent && own.has(parent) && !seen.has(parent) ? fingerprint(parent, new Set([...seen, id])) : ''
    const value = createHash('sha256')
      .update(`${own.get(id) ?? ''}:${chained}`)
      .digest('hex')
    memo.set(id, value)
    return value
  }
  return built.map((item) => ({
    key: item.session.id,
    fingerprint: fingerprint(item.session.id, new Set([item.session.id])),
    forkedFrom: item.meta.forkedFrom ?? null,
    startedAt: item.session.createdAt ?? firstTime(item.records),
    records: item.records
  }))
}

function firstTime(records: SnapshotSession['records']): number | undefined {
  for (const record of records) if ((record.kind === 'message' || record.kind === 'compaction') && record.createdAt !== undefined) return record.createdAt
  return undefined
}
