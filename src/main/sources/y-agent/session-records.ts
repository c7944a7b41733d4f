import type { Usage } from '../../../shared/contract'
import type { SessionMetaRecord, SourceRecord } from '../records'
import { fileEdits, type SnapshotContext } from './file-snapshots'
import { compactionPlace } from './compaction'
import { indexOf } from './links'
import { addUsage, editDrafts, lineRecords, systemNote, usageOf, type Draft } from './message-records'
import { rollbackNote } from './rollback-note'
import { isRecord } from '../plain-data'
import { fileTools } from './file-tools'
import { type EntryRow, type ObservationRow, type StoreDb } from './store-db'
import { failureNote, traceTurn } from './trace-turns'
import { undoneTurns } from './undone-turns'
import type { TranscriptLine } from './transcripts'
import type { SessionInput } from './session-input'

/** What every session's assembly shares: the store, and how its paths are written. */
export interface AssemblyContext {
  db: StoreDb
  dataDir: string
  /** The project a session's tree worked in, if known. */
  projectRootOf(sessionId: string): string | null
  /** A journaled path as the file-edit record carries it (absolute, or relative to the workspace). */
  pathFor(sessionId: string, path: string): string
  /** SHA-256 of contents known to have been written to a path (for completing abbreviated payloads). */
  writtenHashes(path: string): Set<string>
}

/** Items inserted between transcript lines, each with its time (items at one place go in time order). */
type Inserts = Map<number, { at: number; drafts: Draft[] }[]>

/**
 * The records of one session, in the order Retrace writes them: its facts (title, kind, fork
 * point), lines that could not be read, then its display transcript line by line, with what the
 * store adds between the lines: the compaction summary where the context transcript restarts, turns
 * a rollback took out (rebuilt from their traces, their checkpoint invalidated, the rollback and its
 * conflicts noted), journal entries after the tool call that made them, failed model calls; and on
 * each assistant message, the usage and cost of the model call that produced it.
 */
export function sessionRecords(input: SessionInput, meta: Omit<SessionMetaRecord, 'kind' | 'offset'>, context: AssemblyContext): SourceRecord[] {
  const { db } = context
  const index = indexOf(db)
  const session = input.session
  const lines = input.display ?? []
  const problems = [...input.problems]
  const inserts: Inserts = new Map()
  const insert = (position: number, at: number | undefined, drafts: Draft[]) => {
    const list = inserts.get(position) ?? []
    list.push({ at: at ?? 0, drafts })
    inserts.set(position, list)
  }
  /** Where something that happened at `time` goes: before the first line after it. */
  const positionAt = (time: number | undefined) => {
    if (time === undefined) return lines.length
    const after = lines.findIndex((line) => line.timestamp !== undefined && line.timestamp > time)
    return after === -1 ? lines.length : after
  }
  const traces = index.tracesOf.get(session.id) ?? []
  const undone = undoneTurns(session, db)
  const entriesOfObservation = (id: string) => index.entriesOfObservation.get(id) ?? []
  const handledEntries = new Set<string>()
  const editsOf = (entry: EntryRow, written: string | null, toolCallId: string | null): Draft[] => {
    handledEntries.add(entry.id)
    const snapshots: SnapshotContext = { dataDir: context.dataDir, projectRoot: context.projectRootOf(session.id), writtenHashes: context.writtenHashes(entry.filePath) }
    const result = fileEdits(entry, written, snapshots)
    return 'problem' in result ? [{ kind: 'skipped', reason: result.problem }] : editDrafts(result.edits, toolCallId, (path) => context.pathFor(session.id, path))
  }

  // ── Undone turns: flagged in place when their prompt is still there, else rebuilt from the trace.
  const invalidatedLines = new Set<number>()
  for (const turn of undone) {
    const prompt = turn.trace ? lines.findIndex((line) => line.role === 'user' && line.timestamp === turn.trace?.startedAt) : -1
    const note = turn.rollback ? [systemNote(rollbackNote(turn.rollback, turn.scopeId ? (index.entriesOfScope.get(turn.scopeId) ?? []) : [], (path) => context.pathFor(session.id, path)), turn.rollback.completedAt ?? turn.rollback.startedAt)] : []
    if (prompt !== -1 || !turn.trace) {
      if (prompt !== -1) invalidatedLines.add(prompt)
      if (note.length > 0) insert(positionAt(turn.rollback?.startedAt), turn.rollback?.startedAt, note)
      continue
    }
    const trace = turn.trace
    const drafts = traceTurn(trace, index.observationsOf.get(trace.id) ?? [], entriesOfObservation, editsOf, { invalidated: true })
    for (const entry of turn.scopeId ? (index.entriesOfScope.get(turn.scopeId) ?? []) : []) if (!handledEntries.has(entry.id)) drafts.push(...editsOf(entry, null, null))
    drafts.push(...note)
    const at = turn.checkpoint?.messageCountBefore
    const position = at !== undefined && lines[at]?.role === 'user' && (lines[at]?.timestamp ?? Infinity) >= (trace.startedAt ?? 0) ? at : positionAt(trace.startedAt)
    insert(position, trace.startedAt, drafts)
  }
  const undoneTraces = new Set(undone.flatMap((turn) => (turn.trace ? [turn.trace.id] : [])))

  // ── No transcript: an ephemeral session ("no persistence") or lost files. Its traces are all there is.
  if (input.display === null) {
    for (const trace of traces) if (!undoneTraces.has(trace.id)) insert(0, trace.startedAt, traceTurn(trace, index.observationsOf.get(trace.id) ?? [], entriesOfObservation, editsOf, { invalidated: false }))
  }

  // ── Model calls and tool calls of the transcript's turns, matched to their lines by time: a
  // `generation` completes when its assistant message is written, a tool call when its result is.
  const usage = new Map<number, Partial<Usage>>()
  const model = new Map<number, string>()
  const failed = new Set<number>()
  const observationLine = new Map<string, number>()
  const used = new Set<number>()
  const endUsage: Draft[] = []
  const byTime = new Map<string, number[]>()
  lines.forEach((line, i) => byTime.set(`${line.role}@${line.timestamp}`, [...(byTime.get(`${line.role}@${line.timestamp}`) ?? []), i]))
  const lineAt = (role: TranscriptLine['role'], time: number | undefined) => (time === undefined ? undefined : byTime.get(`${role}@${time}`)?.find((i) => !used.has(i))) ?? -1
  const matchGeneration = (observation: ObservationRow): void => {
    const line = lineAt('assistant', observation.completedAt)
    if (line !== -1) {
      used.add(line)
      usage.set(line, addUsage(usage.get(line), usageOf(observation)))
      if (observation.model) model.set(line, observation.model)
      return
    }
    if (observation.status === 'failed') return insert(positionAt(observation.startedAt), observation.startedAt, [failureNote(observation)])
    // Its message is not in the transcript (a cut-off line): the usage still counts, on the answer before it.
    const spent = usageOf(observation)
    if (!spent.inputTokens && !spent.outputTokens && !spent.costUsd) return
    const before = lastIndexWhere(lines, (candidate) => candidate.role === 'assistant' && (candidate.timestamp ?? 0) <= (observation.completedAt ?? Infinity))
    if (before !== -1) usage.set(before, addUsage(usage.get(before), spent))
    else endUsage.push({ kind: 'usage', usage: spent, ...(observation.completedAt !== undefined ? { createdAt: observation.completedAt } : {}) })
  }
  if (input.display !== null) {
    for (const trace of traces) {
      if (undoneTraces.has(trace.id)) continue
      for (const observation of index.observationsOf.get(trace.id) ?? []) {
        if (observation.type === 'generation') matchGeneration(observation)
        else if (observation.type === 'tool_call' || observation.type === 'sub_agent') {
          const line = lineAt('tool', observation.completedAt)
          if (line === -1) continue
          used.add(line)
          observationLine.set(observation.id, line)
          if (observation.status === 'failed') failed.add(line)
        }
      }
    }
  }

  // ── Journal entries of this session's own turns, after the tool result of the call that made them.
  const after = new Map<number, Draft[]>()
  /** Files of journal entries placed by time, not after a call: a write call of one of them is accounted for. */
  const unplacedPaths = new Set<string>()
  const argumentsOf = new Map(lines.flatMap((line) => line.toolCalls.map((call) => [call.id, call.arguments] as const)))
  for (const entry of index.entriesOfSession.get(session.id) ?? []) {
    if (handledEntries.has(entry.id)) continue
    const line = entry.observationId ? observationLine.get(entry.observationId) : undefined
    if (line !== undefined) {
      const callId = lines[line]?.toolCallId ?? null
      const args = callId ? argumentsOf.get(callId) : undefined
      const written = isRecord(args) && typeof args.content === 'string' ? args.content : null
      after.set(line, [...(after.get(line) ?? []), ...editsOf(entry, written, callId)])
    } else {
      unplacedPaths.add(entry.filePath)
      const observation = entry.observationId ? index.observation.get(entry.observationId) : undefined
      const written = observation && isRecord(observation.input) && typeof observation.input.content === 'string' ? observation.input.content : null
      insert(positionAt(entry.timestamp), entry.timestamp, editsOf(entry, written, null))
    }
  }

  // ── Compaction: the context transcript restarts at its summary, which y-agent puts before the
  // messages it kept; Retrace's context view starts at the compaction record, so it goes there.
  const compaction = compactionPlace(input, lines)
  if (compaction.problem) problems.push(compaction.problem)
  if (compaction.summary) {
    const summary = compaction.summary
    insert(compaction.position, summary.timestamp, [{ kind: 'compaction', uid: summary.messageId, summary: summary.content, ...(summary.timestamp !== undefined ? { createdAt: summary.timestamp } : {}) }])
  }

  // ── Turn boundaries: y-agent's checkpoints sit at the prompts Retrace makes its turns from.
  if (input.display !== null) {
    for (const checkpoint of index.checkpointsOf.get(session.id) ?? []) {
      if (checkpoint.invalidated) continue
      if (lines[checkpoint.messageCountBefore]?.role !== 'user') {
        problems.push(`session ${session.id}: checkpoint of turn ${checkpoint.turn} (message_count_before ${checkpoint.messageCountBefore}) is not at a prompt of the display transcript; turns follow the prompts`)
      }
    }
  }

  // ── Assembly: each line (with what follows it) gets one offset, each inserted item its own.
  const records: SourceRecord[] = []
  let offset = 0
  const emit = (drafts: Draft[]) => {
    const at = offset++
    for (const draft of drafts) records.push({ ...draft, offset: at })
  }
  emit([{ kind: 'session-meta', ...meta }])
  for (const problem of problems) emit([{ kind: 'skipped', reason: problem }])
  const toolNames = new Map<string, string>()
  for (let i = 0; i <= lines.length; i++) {
    for (const item of (inserts.get(i) ?? []).sort((a, b) => a.at - b.at)) emit(item.drafts)
    const line = lines[i]
    if (!line) continue
    const facts = { usage: usage.get(i), model: model.get(i) ?? null, toolNames, failed: failed.has(i) }
    const drafts: Draft[] = lineRecords(line, facts)
    if (invalidatedLines.has(i)) drafts[0] = { ...drafts[0], turnInvalidated: true } as Draft
    emit([...drafts, ...(after.get(i) ?? []), ...unjournaledCall(line, toolNames, failed.has(i), after.get(i), unplacedPaths, argumentsOf)])
    // A tool result names only its call: the name comes from the call made before it.
    for (const call of line.toolCalls) toolNames.set(call.id, call.name)
  }
  if (endUsage.length > 0) emit(endUsage)
  return records
}

/**
 * The accounting rule: y-agent journals what its file tools overwrite, so a write tool's result
 * with no journal entry after it (and none of its file placed by time) is reported, not dropped.
 */
function unjournaledCall(line: TranscriptLine, toolNames: Map<string, string>, failed: boolean, journaled: Draft[] | undefined, unplacedPaths: Set<string>, argumentsOf: Map<string, unknown>): Draft[] {
  const tool = line.role === 'tool' && line.toolCallId ? toolNames.get(line.toolCallId) : undefined
  if (!tool || !fileTools.writes.includes(tool) || failed || (journaled ?? []).length > 0) return []
  const args = argumentsOf.get(line.toolCallId ?? '')
  const path = isRecord(args) && typeof args.path === 'string' ? args.path : null
  if (path !== null && unplacedPaths.has(path)) return []
  return [{ kind: 'change-not-captured', toolCallId: line.toolCallId, tool, path, reason: 'y-agent journaled nothing for this call' }]
}

function lastIndexWhere<T>(items: T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i
  return -1
}
