import { randomUUID } from 'node:crypto'
import { RetraceError, type Checkpoint } from '../../shared/contract'
import { EMPTY_COVERAGE } from '../../shared/coverage'
import type { ChangeFeed } from '../events/change-feed'
import type { FileJournal } from '../journal/file-journal'
import type { SessionRecord } from '../store/repositories/sessions'
import type { Store } from '../store/store'
import { ForkSchema, StartSessionSchema, type ForkOptions, type StartSession } from './recorder-schemas'
import { SessionWriter, type WriterOwner, type WriterState } from './session-writer'

/**
 * Forks of forks of forks…: a bound keeps a runaway agent from nesting without end (tests
 * lower it: runtime/tuning.ts).
 */
export const MAX_SESSION_DEPTH = 32

/**
 * Writes native sessions into the store: start a session, append messages, close turns
 * (each closed turn gets a chat checkpoint), compact, start sub-agents, fork, and continue
 * after a reset. Everything a writer does is one synchronous SQLite transaction per call;
 * wrap many calls in `batch` to commit them together.
 */
export class Recorder implements WriterOwner {
  constructor(
    private readonly store: Store,
    private readonly feed?: ChangeFeed,
    private readonly now: () => number = Date.now,
    private readonly maxDepth: number = MAX_SESSION_DEPTH,
    /** Where file writes reported by tools are journaled (absent: recording files is refused). */
    readonly journal?: FileJournal
  ) {}

  /** Run several recorder calls in one transaction (much faster for bulk writes). */
  batch<T>(work: () => T): T {
    return this.store.transaction(work)
  }

  startSession(input: StartSession): SessionWriter {
    const options = StartSessionSchema.parse(input)
    const workspace = this.store.workspaces.get(options.workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${options.workspaceId}.`)
    const parent = options.parentId ? this.requireInWorkspace(options.parentId, options.workspaceId) : null
    const createdAt = options.createdAt ?? this.now()
    const uid = randomUUID()
    const rowId = this.store.sessions.insert({
      uid,
      workspaceId: options.workspaceId,
      source: options.source,
      sourceSessionId: options.sourceSessionId ?? null,
      title: options.title,
      kind: parent ? 'child' : options.kind,
      parentRowId: parent?.rowId ?? null,
      depth: parent ? this.childDepth(parent) : 0,
      model: options.model ?? null,
      cwd: options.cwd ?? workspace.path,
      createdAt
    })
    this.announce(options.workspaceId, uid)
    return this.writer({ rowId, uid, workspaceId: options.workspaceId, nextSeq: 0, turn: 0, turnStartSeq: 0, turnOpen: false, lastActivityAt: createdAt })
  }

  /** Reopen a stored session to append to it. */
  resume(sessionId: string): SessionWriter {
    const record = this.store.sessions.require(sessionId)
    const checkpoints = this.store.checkpoints.list(record.rowId)
    const lastClosed = checkpoints.at(-1)?.turn ?? 0
    const turnOpen = record.turnCount > lastClosed
    return this.writer({
      rowId: record.rowId,
      uid: record.id,
      workspaceId: record.workspaceId,
      nextSeq: record.messageCount,
      turn: record.turnCount,
      turnStartSeq: turnOpen ? this.turnStart(record, record.turnCount) : record.messageCount,
      turnOpen,
      lastActivityAt: record.updatedAt
    }, record)
  }

  /**
   * A branch: a new session whose transcript is the parent's prefix up to (not including)
   * turn `atTurn`, with the checkpoints of the turns it keeps.
   */
  fork(sessionId: string, input: ForkOptions): SessionWriter {
    const options = ForkSchema.parse(input)
    const parent = this.store.sessions.require(sessionId)
    const checkpoint = this.checkpointOf(parent, options.atTurn)
    const forkSeq = checkpoint.messagesBefore
    const createdAt = options.createdAt ?? this.now()
    const uid = options.uid ?? randomUUID()
    this.batch(() => {
      const id = this.store.sessions.insert({
        uid,
        workspaceId: parent.workspaceId,
        source: parent.source,
        title: options.title ?? `${parent.title || 'Session'} (branch at turn ${options.atTurn})`,
        kind: 'branch',
        parentRowId: parent.rowId,
        forkSeq,
        depth: this.childDepth(parent),
        model: parent.model,
        cwd: parent.cwd,
        createdAt
      })
      this.store.messages.copyPrefix(parent.rowId, id, forkSeq)
      this.store.checkpoints.copyBefore(parent.rowId, id, options.atTurn)
      const contextStart = parent.contextStartSeq < forkSeq ? parent.contextStartSeq : 0
      this.store.sessions.setContextStart(id, contextStart)
      this.store.sessions.saveProgress(id, {
        messageCount: forkSeq,
        turnCount: options.atTurn - 1,
        updatedAt: createdAt,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: null,
        model: parent.model
      })
    })
    this.announce(parent.workspaceId, uid)
    return this.resume(uid)
  }

  /** A fresh session continuing `sessionId` after a reset (`/clear`, `/new`); closes the old one. */
  startSuccessor(sessionId: string, input: { title?: string; createdAt?: number } = {}): SessionWriter {
    const previous = this.store.sessions.require(sessionId)
    const createdAt = input.createdAt ?? this.now()
    const uid = randomUUID()
    const rowId = this.batch(() => {
      this.store.sessions.setStatus(previous.rowId, 'closed')
      return this.store.sessions.insert({
        uid,
        workspaceId: previous.workspaceId,
        source: previous.source,
        title: input.title ?? '',
        kind: 'main',
        predecessorRowId: previous.rowId,
        model: previous.model,
        cwd: previous.cwd,
        createdAt
      })
    })
    this.announce(previous.workspaceId, uid, previous.id)
    return this.writer({ rowId, uid, workspaceId: previous.workspaceId, nextSeq: 0, turn: 0, turnStartSeq: 0, turnOpen: false, lastActivityAt: createdAt })
  }

  /** Used by SessionWriter: a sub-agent session started by the parent's latest message. */
  startSubAgent(parentUid: string, input: { title?: string; createdAt?: number }): SessionWriter {
    const parent = this.store.sessions.require(parentUid)
    const createdAt = input.createdAt ?? this.now()
    const uid = randomUUID()
    const rowId = this.store.sessions.insert({
      uid,
      workspaceId: parent.workspaceId,
      source: parent.source,
      title: input.title ?? 'Sub-agent',
      kind: 'sub-agent',
      parentRowId: parent.rowId,
      forkSeq: Math.max(0, parent.messageCount - 1),
      depth: this.childDepth(parent),
      model: parent.model,
      cwd: parent.cwd,
      createdAt
    })
    this.announce(parent.workspaceId, uid)
    return this.writer({ rowId, uid, workspaceId: parent.workspaceId, nextSeq: 0, turn: 0, turnStartSeq: 0, turnOpen: false, lastActivityAt: createdAt })
  }

  announce(workspaceId: number, ...sessionIds: string[]): void {
    this.feed?.changed(['sessions', 'messages', 'checkpoints', 'workspaces', 'files'], { workspaceId, sessionIds })
  }

  private writer(state: WriterState, record?: SessionRecord): SessionWriter {
    return new SessionWriter(this, this.store, state, this.now, record)
  }

  private childDepth(parent: SessionRecord): number {
    if (parent.depth + 1 > this.maxDepth) {
      throw new RetraceError('VALIDATION', `Sessions can nest at most ${this.maxDepth} levels deep; "${parent.title}" is already at ${parent.depth}.`)
    }
    return parent.depth + 1
  }

  private requireInWorkspace(sessionId: string, workspaceId: number): SessionRecord {
    const session = this.store.sessions.require(sessionId)
    if (session.workspaceId !== workspaceId) {
      throw new RetraceError('VALIDATION', `Session ${sessionId} belongs to another workspace.`)
    }
    return session
  }

  private checkpointOf(session: SessionRecord, turn: number): Checkpoint {
    const checkpoint = this.store.checkpoints.list(session.rowId).find((c) => c.turn === turn)
    if (checkpoint) return checkpoint
    if (turn === session.turnCount && turn > 0) {
      // The open last turn has no checkpoint yet; its start is still known.
      return { turn, messagesBefore: this.turnStart(session, turn), invalidated: false, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt: this.now() }
    }
    throw new RetraceError('NOT_FOUND', `Session "${session.title}" has no turn ${turn} (it has ${session.turnCount}).`)
  }

  private turnStart(session: SessionRecord, turn: number): number {
    return this.store.messages.turnStart(session.rowId, turn) ?? session.messageCount
  }
}
