import { RetraceError, type Checkpoint, type SourceRef } from '../../shared/contract'
import { EMPTY_COVERAGE } from '../../shared/coverage'
import type { FileJournal, ToolFileChange } from '../journal/file-journal'
import type { SessionRecord } from '../store/repositories/sessions'
import type { Store } from '../store/store'
import { costOf } from '../pricing/prices'
import { AppendMessageSchema, type AppendMessage } from './recorder-schemas'

/** What a writer keeps in memory between calls, so appends need no read-back. */
export interface WriterState {
  rowId: number
  uid: string
  workspaceId: number
  nextSeq: number
  /** Current turn number (0 until the first user prompt). */
  turn: number
  /** Display seq of the current turn's user prompt. */
  turnStartSeq: number
  /** True while the current turn has no checkpoint yet. */
  turnOpen: boolean
  /** Time of the latest message: a turn's checkpoint is stamped with its last activity. */
  lastActivityAt: number
}

/** What a writer needs of the recorder that made it: the file journal, and whom to tell of changes. */
export interface WriterOwner {
  readonly journal?: FileJournal
  announce(workspaceId: number, ...sessionIds: string[]): void
  startSubAgent(parentUid: string, input: { title?: string; createdAt?: number }): SessionWriter
}

/** Appends to one session. Obtained from the Recorder. */
export class SessionWriter {
  private totals: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null }
  /** What the tokens without a recorded cost cost at the price table's prices (null: none priced yet). */
  private pricedCostUsd: number | null
  private model: string | null = null
  private untitled: boolean
  /** Set by an importer: the session's counts are saved by `flushProgress`, once per chunk of lines. */
  private deferProgressSaves = false
  private progressUnsaved = false
  /** The latest assistant message's id (undefined: none; null: not looked up yet), for usage reported after it. */
  private latestAssistant: number | undefined | null = null

  constructor(
    private readonly recorder: WriterOwner,
    private readonly store: Store,
    private readonly state: WriterState,
    private readonly now: () => number,
    record: SessionRecord = store.sessions.require(state.uid)
  ) {
    this.totals = {
      inputTokens: record.usage.inputTokens,
      outputTokens: record.usage.outputTokens,
      cacheReadTokens: record.usage.cacheReadTokens,
      cacheWriteTokens: record.usage.cacheWriteTokens,
      costUsd: record.usage.costUsd
    }
    this.pricedCostUsd = record.pricedCostUsd
    this.model = record.model
    this.untitled = record.title.trim() === ''
  }

  /**
   * Run `work` as one transaction, or as part of the caller's: an import appends thousands of
   * messages inside the transaction of its chunk of lines, where a savepoint per message would
   * cost more than the message. Nothing here catches a failure half-way: it rolls back whole.
   */
  private atomically<T>(work: () => T): T {
    return this.store.inTransaction ? work() : this.store.transaction(work)
  }

  get id(): string {
    return this.state.uid
  }

  get rowId(): number {
    return this.state.rowId
  }

  get turn(): number {
    return this.state.turn
  }

  /**
   * Append one message to the display (and context) transcript and return its seq. A user
   * prompt starts a new turn, closing the previous one if it is still open.
   */
  append(input: AppendMessage): number {
    const message = AppendMessageSchema.parse(input)
    return this.atomically(() => {
      if (message.role === 'user') {
        if (this.state.turnOpen) this.closeTurnNow()
        this.state.turn += 1
        this.state.turnStartSeq = this.state.nextSeq
        this.state.turnOpen = true
      }
      const usage = message.usage
        ? {
            inputTokens: message.usage.inputTokens ?? 0,
            outputTokens: message.usage.outputTokens ?? 0,
            cacheReadTokens: message.usage.cacheReadTokens ?? 0,
            cacheWriteTokens: message.usage.cacheWriteTokens ?? 0,
            costUsd: message.usage.costUsd ?? null
          }
        : null
      const seq = this.state.nextSeq
      const messageId = this.store.messages.insert({
        sessionRowId: this.state.rowId,
        seq,
        turn: this.state.turn,
        role: message.role,
        content: message.content,
        toolName: message.toolName ?? null,
        toolCallId: message.toolCallId ?? null,
        toolInput: message.toolInput,
        isError: message.isError ?? false,
        model: message.model ?? null,
        usage,
        createdAt: message.createdAt ?? this.now(),
        sourceRef: message.sourceRef ?? null,
        sourceUid: message.sourceUid ?? null
      })
      for (const attachment of message.attachments ?? []) {
        this.store.messages.addAttachment(messageId, { ...attachment, data: attachment.data === null ? null : Buffer.from(attachment.data, 'base64') })
      }
      this.state.nextSeq += 1
      if (message.role === 'assistant') this.latestAssistant = messageId
      if (message.model) this.model = message.model
      if (usage) this.addUsage(usage, message.model ?? this.model)
      if (this.untitled && message.role === 'user' && message.content.trim()) {
        this.store.sessions.setTitle(this.state.rowId, titleFromPrompt(message.content))
        this.untitled = false
      }
      this.state.lastActivityAt = message.createdAt ?? this.now()
      this.saveProgress()
      this.recorder.announce(this.state.workspaceId, this.state.uid)
      return seq
    })
  }

  /**
   * Usage reported after the message it belongs to (Codex `token_count`): added to the latest
   * assistant message, or only to the session's totals when there is none yet.
   */
  addLateUsage(usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): void {
    this.atomically(() => {
      if (this.latestAssistant === null) this.latestAssistant = this.store.messages.latestOfRole(this.state.rowId, 'assistant')
      if (this.latestAssistant !== undefined) this.store.messages.addUsage(this.latestAssistant, usage)
      this.addUsage({ ...usage, costUsd: null }, this.model)
      this.saveProgress()
    })
  }

  /** Close the current turn, creating its chat checkpoint; null when no turn is open. */
  closeTurn(): Checkpoint | null {
    if (!this.state.turnOpen) return null
    const checkpoint = this.atomically(() => this.closeTurnNow())
    this.recorder.announce(this.state.workspaceId, this.state.uid)
    return checkpoint
  }

  /**
   * Compaction: the model's context is replaced by `summary`. The display transcript keeps
   * everything; the context transcript now starts at the summary.
   */
  compact(summary: string, options: { createdAt?: number; sourceRef?: SourceRef } = {}): number {
    return this.atomically(() => {
      const seq = this.state.nextSeq
      const createdAt = options.createdAt ?? this.now()
      this.store.messages.insert({ sessionRowId: this.state.rowId, seq, turn: this.state.turn, role: 'compaction_summary', content: summary, createdAt, sourceRef: options.sourceRef ?? null })
      this.state.nextSeq += 1
      this.state.lastActivityAt = createdAt
      this.store.sessions.setContextStart(this.state.rowId, seq)
      this.saveProgress()
      return seq
    })
  }

  /**
   * Journal a file write a tool made in the current turn, with the content before and after
   * (null: the file did not exist / was deleted), so the turn can be diffed and rewound.
   */
  recordFileChange(change: ToolFileChange): void {
    if (!this.recorder.journal) throw new Error('This recorder has no file journal.')
    if (this.state.turn === 0) throw new RetraceError('VALIDATION', 'A file change belongs to a turn: append the user prompt first.')
    this.recorder.journal.recordToolChange({ workspaceId: this.state.workspaceId, sessionRowId: this.state.rowId, turn: this.state.turn }, change)
    this.recorder.announce(this.state.workspaceId, this.state.uid)
  }

  /** A sub-agent session started by this session's latest message (typically a tool call). */
  startSubAgent(input: { title?: string; createdAt?: number } = {}): SessionWriter {
    return this.recorder.startSubAgent(this.state.uid, input)
  }

  /** Close the open turn and mark the session closed. */
  close(): void {
    this.atomically(() => {
      if (this.state.turnOpen) this.closeTurnNow()
      this.store.sessions.setStatus(this.state.rowId, 'closed')
    })
    this.recorder.announce(this.state.workspaceId, this.state.uid)
  }

  private closeTurnNow(): Checkpoint {
    const createdAt = this.state.lastActivityAt
    this.store.checkpoints.create({ sessionRowId: this.state.rowId, turn: this.state.turn, messagesBefore: this.state.turnStartSeq, createdAt })
    this.state.turnOpen = false
    return { turn: this.state.turn, messagesBefore: this.state.turnStartSeq, invalidated: false, uncapturedCommands: 0, notCaptured: [], coverage: EMPTY_COVERAGE, createdAt }
  }

  /**
   * Add a message's usage to the session's totals. A cost the source recorded is kept as it is;
   * the tokens of a message without one are priced here (the store keeps both, see migration 020).
   */
  private addUsage(usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null }, model: string | null): void {
    this.totals.inputTokens += usage.inputTokens
    this.totals.outputTokens += usage.outputTokens
    this.totals.cacheReadTokens += usage.cacheReadTokens
    this.totals.cacheWriteTokens += usage.cacheWriteTokens
    if (usage.costUsd !== null) {
      this.totals.costUsd = (this.totals.costUsd ?? 0) + usage.costUsd
      return
    }
    const priced = costOf(model, usage)
    if (priced !== undefined) this.pricedCostUsd = (this.pricedCostUsd ?? 0) + priced
  }

  /**
   * Save the session's counts once per chunk of imported lines (`flushProgress`) rather than
   * once per message: an UPDATE of the session row per message was a seventh of importing
   * 100 Codex rollouts. Whoever defers reads no counts of this session from the store before
   * flushing (the importer flushes at the end of each chunk and before splitting a session).
   */
  deferProgress(): void {
    this.deferProgressSaves = true
  }

  flushProgress(): void {
    if (!this.progressUnsaved) return
    this.progressUnsaved = false
    this.saveProgressNow()
  }

  private saveProgress(): void {
    if (this.deferProgressSaves) this.progressUnsaved = true
    else this.saveProgressNow()
  }

  /** The session's counts, usage and time of its latest activity. */
  private saveProgressNow(): void {
    this.store.sessions.saveProgress(this.state.rowId, {
      messageCount: this.state.nextSeq,
      turnCount: this.state.turn,
      updatedAt: this.state.lastActivityAt,
      ...this.totals,
      pricedCostUsd: this.pricedCostUsd,
      model: this.model
    })
  }
}

/** A session without a title is named after its first prompt's first line. */
export function titleFromPrompt(prompt: string): string {
  const firstLine = prompt.trim().split('\n', 1)[0] ?? ''
  return firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine
}
