import { randomUUID } from 'node:crypto'
import type { SessionKind } from '../../shared/contract'
import type { SessionRecord } from '../store/repositories/sessions'
import type { SessionWriter } from '../transcripts/session-writer'
import type { HistoryFile } from './adapter'
import type { FileImportState } from './import-state'
import type { AgentRewindRecord, CompactionRecord, MessageRecord, SessionMetaRecord } from './records'
import { splitRewoundLine } from './rewound-lines'
import type { ImportDeps, ImportReport } from './import-deps'
import { adoptOrphans, parentLinkTitle, parentOfSubAgentFile } from './sub-agent-parents'

/**
 * The sessions one foreign file's records go to, made when first needed: the file's own (a main
 * session, a fork of the session it names, the successor of the one it continues, a sub-agent of
 * its parent's file, or a session hanging below another), and the sub-agents of inline sidechain
 * lines. Keeps one writer per session for the record writer.
 */
export class ImportedSessions {
  private readonly writers = new Map<string, SessionWriter>()
  private forkParent: SessionRecord | null | undefined
  /** The session this file's session hangs below, when a session-meta record names one (y-agent children). */
  private hangsBelow: SessionMetaRecord['parent']

  constructor(
    private readonly deps: ImportDeps,
    private readonly workspace: { id: number; path: string },
    private readonly file: HistoryFile,
    private readonly state: FileImportState,
    private readonly report: ImportReport,
    /** Links agent id → tool call id recorded by the parent session's file (sub-agent files). */
    private readonly parentLinks: () => Record<string, string>
  ) {}

  /** The file's session will hang below `link`'s session (read when it is made). */
  hangBelow(link: NonNullable<SessionMetaRecord['parent']>): void {
    this.hangsBelow = link
  }

  /** The session a record belongs to: the file's own, or an inline sidechain's sub-agent session. */
  sessionFor(record: MessageRecord | CompactionRecord): string {
    const main = this.state.sessionUid ?? this.createFileSession(record)
    const agentId = record.kind === 'message' ? record.agentId : null
    if (!agentId || this.file.role === 'sub-agent') return main
    return (this.state.subAgents[agentId] ??= this.createSubAgent(`${this.file.sessionId}/agent-${agentId}`, main, this.file.sessionId, this.state.links[agentId], this.state.linkTitles[agentId], record.createdAt))
  }

  /** The writer of a session (resumed once, then kept). */
  writer(uid: string): SessionWriter {
    let writer = this.writers.get(uid)
    if (!writer) {
      writer = this.deps.recorder.resume(uid)
      writer.deferProgress() // saved at the end of each chunk (RecordWriter.finish)
      this.writers.set(uid, writer)
    }
    return writer
  }

  /** The row of a session this file writes to, from its writer when it has one. */
  rowIdOf(uid: string): number | null {
    return this.writers.get(uid)?.rowId ?? this.deps.store.sessions.get(uid)?.rowId ?? null
  }

  /** Save the counts the writers keep for their sessions (see SessionWriter.deferProgress). */
  flushProgress(): void {
    for (const writer of this.writers.values()) writer.flushProgress()
  }

  /** Every writer used so far (to close their turns). */
  openWriters(): Iterable<SessionWriter> {
    return this.writers.values()
  }

  /** A link seen after its sub-agent's session was made (live import): attach it now, titled by the call's description. */
  linkSubAgent(agentId: string, toolCallId: string, description?: string): void {
    const { store } = this.deps
    const parent = this.state.sessionUid ? store.sessions.get(this.state.sessionUid) : undefined
    // An agent a sub-agent started sits flat beside it (Claude Code): named after the session, not the agent.
    // A Codex child thread has its own id.
    const child =
      store.sessions.bySourceId(this.workspace.id, this.file.source, `${this.file.sessionId}/agent-${agentId}`) ??
      (this.file.role === 'sub-agent' && this.file.parentSessionId ? store.sessions.bySourceId(this.workspace.id, this.file.source, `${this.file.rootSessionId ?? this.file.parentSessionId}/agent-${agentId}`) : undefined) ??
      (parent ? this.ownSubAgent(agentId, parent.rowId) : undefined)
    if (!parent || !child) return
    const place = this.placeAt(parent, toolCallId)
    // A call this session does not hold does not move an agent that already hangs elsewhere (below the agent that started it).
    if (place.forkSeq === null && child.parentRowId !== null && child.parentRowId !== parent.rowId) return
    store.sessions.link(child.rowId, place)
    if (description && child.title !== description) store.sessions.setTitle(child.rowId, description)
  }

  /** A sub-agent session of its own id, a root until now (its parent was not imported) or already below `parentRowId`. */
  private ownSubAgent(agentId: string, parentRowId: number): SessionRecord | undefined {
    const session = this.deps.store.sessions.bySourceId(this.workspace.id, this.file.source, agentId)
    return session?.kind === 'sub-agent' && (session.parentRowId === null || session.parentRowId === parentRowId) ? session : undefined
  }

  /**
   * Where a session started by `parent`'s tool call hangs: at the call, which may be on a line
   * the user left by rewinding in the agent (then the session hangs below that branch).
   */
  private placeAt(parent: SessionRecord, toolCallId: string | undefined): { parentRowId: number; forkSeq: number | null; depth: number } {
    const owner = toolCallId ? this.deps.store.splits.toolCallOwner(parent.rowId, toolCallId) : undefined
    return owner ? { parentRowId: owner.rowId, forkSeq: owner.seq, depth: owner.depth + 1 } : { parentRowId: parent.rowId, forkSeq: null, depth: parent.depth + 1 }
  }

  /**
   * The user went back inside the agent: the line left moves to a branch (rewound-lines.ts). The
   * session's open turn is closed first, so the left line's last turn is a checkpoint too, and
   * its writer is made afresh afterwards, from the counters the split left.
   */
  splitRewoundLine(record: AgentRewindRecord): void {
    const mainUid = this.state.sessionUid
    if (!mainUid || this.file.role === 'sub-agent') return
    this.flushProgress() // the split reads the session's counts
    const split = splitRewoundLine(this.deps.store, this.workspace.id, this.file, this.state, record, () => this.writer(mainUid).closeTurn())
    if (!split) return
    this.writers.delete(mainUid)
    this.announced(split.branchUid)
    this.deps.recorder.announce(this.workspace.id, mainUid)
  }

  /**
   * The file's session began with `/clear`: it continues the session of the same source last
   * active before it started (as when `/clear` comes first, see createMain). A fork or a
   * session hanging below another keeps its place.
   */
  continueAfterClear(): void {
    const { store } = this.deps
    const session = this.state.sessionUid ? store.sessions.get(this.state.sessionUid) : undefined
    if (!session || session.kind !== 'main' || session.predecessorRowId !== null) return
    const predecessor = store.sessions.latestOfSource(this.workspace.id, this.file.source, 'main', session.rowId, session.createdAt)
    const predecessorRowId = predecessor ? store.sessions.get(predecessor)?.rowId : undefined
    if (predecessorRowId !== undefined) store.sessions.setPredecessor(session.rowId, predecessorRowId)
    else this.deps.settle?.successors.add({ rowId: session.rowId, workspaceId: this.workspace.id, source: this.file.source, createdAt: session.createdAt, continues: undefined })
  }

  /** Forks copy most of their parent's lines; those are already in the branch's copied prefix. */
  isForkCopy(sourceUid: string): boolean {
    const parent = this.forkParentSession()
    return parent !== null && this.deps.store.messages.bySourceUid(parent.rowId, sourceUid) !== undefined
  }

  private createFileSession(first: MessageRecord | CompactionRecord): string {
    const uid = this.file.role === 'sub-agent' ? this.createSubAgentOfFile(first.createdAt) : (this.existing(this.file.sessionId) ?? this.createMain(first.createdAt ?? this.file.startedAt))
    this.state.sessionUid = uid
    return uid
  }

  private existing(sourceSessionId: string): string | undefined {
    return this.deps.store.sessions.bySourceId(this.workspace.id, this.file.source, sourceSessionId)?.id
  }

  private createMain(createdAt = Date.now()): string {
    const { store } = this.deps
    // Copied lines at the top of a fork may come before the first line that names the parent.
    if (!this.state.forkedFrom && this.file.forkedFrom) this.state.forkedFrom = this.file.forkedFrom
    if (this.hangsBelow && !this.state.forkedFrom) {
      const link = this.hangsBelow
      const parent = store.sessions.bySourceId(this.workspace.id, this.file.source, link.sessionId)
      return this.createChild({ uid: this.newSessionUid(), sourceSessionId: this.file.sessionId, title: this.state.title ?? '', kind: link.kind, parent, parentSourceId: link.sessionId, toolCallId: link.toolCallId, createdAt })
    }
    const parent = this.forkParentSession()
    const point = parent && this.state.forkedFrom?.messageUid ? store.messages.bySourceUid(parent.rowId, this.state.forkedFrom.messageUid) : undefined
    // The session this one continues: the one Retrace wrote it from ("Continue in…", R61), named
    // by the source (a reset thread), or guessed from `/clear`.
    const continued = parent ? undefined : store.continuations.continuedFrom(this.file.source, this.file.sessionId)
    const predecessor = parent || continued !== undefined
      ? undefined
      : this.file.continues
        ? this.existing(this.file.continues)
        : this.state.startedByClear
          ? store.sessions.latestOfSource(this.workspace.id, this.file.source, 'main', -1, createdAt)
          : undefined
    const uid = this.newSessionUid()
    const forkSeq = point ? point.seq + 1 : null
    const rowId = store.sessions.insert({
      uid,
      workspaceId: this.workspace.id,
      source: this.file.source,
      sourceSessionId: this.file.sessionId,
      title: this.state.title ?? '',
      kind: parent ? 'branch' : 'main',
      parentRowId: parent?.rowId ?? null,
      forkSeq,
      depth: parent ? parent.depth + 1 : 0,
      predecessorRowId: continued ?? (predecessor ? (store.sessions.get(predecessor)?.rowId ?? null) : null),
      model: null,
      cwd: this.state.cwd ?? this.file.cwd,
      createdAt
    })
    // Its predecessor may come later in this import (newest first): linked at the end.
    if (!parent && !predecessor && continued === undefined && (this.file.continues !== undefined || this.state.startedByClear)) {
      this.deps.settle?.successors.add({ rowId, workspaceId: this.workspace.id, source: this.file.source, createdAt, continues: this.file.continues })
    }
    if (parent && point && forkSeq !== null) {
      // Like a native fork: the branch's transcript starts with the parent's prefix.
      store.messages.copyPrefix(parent.rowId, rowId, forkSeq)
      store.checkpoints.copyBefore(parent.rowId, rowId, point.turn)
      store.sessions.setContextStart(rowId, parent.contextStartSeq < forkSeq ? parent.contextStartSeq : 0)
      store.sessions.saveProgress(rowId, { messageCount: forkSeq, turnCount: point.turn, updatedAt: createdAt, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: null, model: parent.model })
    }
    return this.announced(uid)
  }

  private createSubAgentOfFile(createdAt: number | undefined): string {
    const existing = this.existing(this.file.sessionId)
    if (existing) return existing
    const parent = parentOfSubAgentFile(this.deps, this.workspace, this.file, this.state.cwd ?? this.file.cwd, (uid) => this.announced(uid))
    // The call that started it: from the parent's tool result, or from the agent's own metadata.
    const links = this.parentLinks()
    const toolCallId = links[this.file.agentId ?? ''] ?? (this.file.linkedAs ? links[this.file.linkedAs] : undefined) ?? this.file.startedBy
    const title = this.file.title ?? parentLinkTitle(this.deps, this.workspace, this.file)
    return this.createSubAgent(this.file.sessionId, parent?.id ?? null, this.file.parentSessionId ?? null, toolCallId, title, createdAt)
  }

  /** `createdAt`: when its first line was written (the agent started then, not when it is imported). */
  private createSubAgent(sourceSessionId: string, parentUid: string | null, parentSourceId: string | null, toolCallId: string | undefined, title = '', createdAt?: number): string {
    const existing = this.existing(sourceSessionId)
    if (existing) return existing
    const parent = parentUid ? this.deps.store.sessions.get(parentUid) : undefined
    // Untitled: the writer names it after its first prompt (the task it was given).
    return this.createChild({ uid: randomUUID(), sourceSessionId, title, kind: 'sub-agent', parent, parentSourceId, toolCallId, createdAt: createdAt ?? Date.now() })
  }

  /**
   * A session hanging below another without its messages (a sub-agent, a y-agent child or
   * ephemeral session): placed at the parent's tool call that started it, when known. A parent
   * not imported (yet) leaves it a root.
   */
  private createChild(child: {
    uid: string
    sourceSessionId: string
    title: string
    kind: SessionKind
    parent: SessionRecord | undefined
    /** The source's id of the parent: kept, so a parent imported later adopts it (and, until then, it says which is missing). */
    parentSourceId: string | null
    toolCallId: string | undefined
    createdAt: number
  }): string {
    const { store } = this.deps
    const { parent } = child
    // What the file's metadata says of the agent it holds (Claude Code's agent-<id>.meta.json).
    const ownAgent = child.kind === 'sub-agent' && child.sourceSessionId === this.file.sessionId
    store.sessions.insert({
      uid: child.uid,
      workspaceId: this.workspace.id,
      source: this.file.source,
      sourceSessionId: child.sourceSessionId,
      title: child.title,
      kind: child.kind,
      ...(parent ? this.placeAt(parent, child.toolCallId) : { parentRowId: null, forkSeq: null, depth: 0 }),
      parentSourceId: child.parentSourceId,
      // Until its own lines name the model it ran on.
      model: ownAgent ? (this.file.agentModel ?? null) : null,
      agentType: ownAgent ? (this.file.agentType ?? null) : null,
      cwd: this.state.cwd ?? this.file.cwd,
      createdAt: child.createdAt
    })
    return this.announced(child.uid)
  }

  private announced(uid: string): string {
    adoptOrphans(this.deps, uid)
    this.report.sessions += 1
    this.deps.recorder.announce(this.workspace.id, uid)
    return uid
  }

  /**
   * The id of the file's own session: a snapshot store's session read again keeps the id it had,
   * so a window showing it (following a running agent) stays on it.
   */
  private newSessionUid(): string {
    return this.file.reuseUid ?? randomUUID()
  }

  private forkParentSession(): SessionRecord | null {
    if (this.forkParent === undefined) {
      const from = this.state.forkedFrom
      this.forkParent = from ? (this.deps.store.sessions.bySourceId(this.workspace.id, this.file.source, from.sessionId) ?? null) : null
    }
    return this.forkParent
  }
}
