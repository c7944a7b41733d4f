import type { Message, MessageRole, SourceRef, TranscriptKind, Usage } from '../../../shared/contract'
import { RetraceError } from '../../../shared/contract'
import type { Db } from '../database'

export interface NewMessage {
  sessionRowId: number
  seq: number
  turn: number
  role: MessageRole
  content: string
  toolName?: string | null
  toolCallId?: string | null
  toolInput?: unknown
  isError?: boolean
  inContext?: boolean
  model?: string | null
  usage?: Usage | null
  createdAt?: number | null
  sourceRef?: SourceRef | null
  /** The source's own id of the message (an importer's de-duplication key). */
  sourceUid?: string | null
}

/** An image or document a message carried, stored beside its text. */
export interface NewAttachment {
  mediaType: string
  name?: string | null
  data: Buffer | null
}

/**
 * A message an import keeps while the agent's file is read again (sources/kept-messages.ts): one
 * marked as no longer in its file, or a compaction imported before compactions named their line.
 */
export interface KeptMessage {
  id: number
  sessionRowId: number
  seq: number
  sourceUid: string | null
  role: MessageRole
  toolCallId: string | null
  createdAt: number | null
  /** Its text's length in UTF-8 bytes. */
  bytes: number
}

/** What a line read again must equal to be a kept message. */
export interface KeptContent {
  content: string
  toolName: string | null
  /** JSON text, as stored. */
  toolInput: string | null
  createdAt: number | null
}

/** Which transcript to read: the display one, or the context one from its start seq. */
export interface TranscriptView {
  sessionRowId: number
  sessionUid: string
  transcript: TranscriptKind
  contextStartSeq: number
}

/** A message as stored (what a copy into another session needs, beyond the transport shape). */
export interface StoredMessage {
  id: number
  seq: number
  turn: number
  role: MessageRole
  content: string
  toolName: string | null
  toolCallId: string | null
  /** JSON text, as the agent's tool call carried it. */
  toolInput: string | null
  isError: boolean
  inContext: boolean
  model: string | null
  inputTokens: number | null
  outputTokens: number | null
  cacheReadTokens: number | null
  cacheWriteTokens: number | null
  costUsd: number | null
  createdAt: number | null
  sourceRef: string | null
}

interface MessageRow {
  id: number
  seq: number
  turn: number
  role: MessageRole
  content: string
  tool_name: string | null
  tool_call_id: string | null
  tool_input: string | null
  is_error: number
  in_context: number
  model: string | null
  input_tokens: number | null
  output_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  cost_usd: number | null
  created_at: number | null
  source_ref: string | null
}

const COLUMNS = `id, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context, model,
  input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref`

// The context transcript is the display transcript from context_start_seq on, minus what a
// compaction took out of the model's view. Both filters ride on the (session_id, seq) index.
const CONTEXT_FILTER = 'AND seq >= @start AND in_context = 1'

/** Messages of the display transcript (and, derived from it, the context transcript). */
export class MessageRepository {
  private readonly insertStmt
  private readonly pageStatements = new Map<string, ReturnType<Db['prepare']>>()
  private readonly countContextStmt
  private readonly copyPrefixStmt
  private readonly rowsFromStmt
  private readonly bySourceUidStmt
  private readonly attachmentStmt
  private readonly addUsageStmt
  private readonly latestOfRoleStmt
  private readonly byToolCallStmt
  private readonly toolOfCallStmt
  private readonly countFromStmt
  private readonly leaveContextStmt
  private readonly inContextIdsStmt
  private readonly restoreContextStmt
  private readonly deleteFromStmt
  private readonly lastTurnBeforeStmt
  private readonly turnStartStmt
  private readonly repointSourceStmt
  private readonly turnCallsStmt
  private readonly markNotInFileStmt
  private readonly keptStmt
  private readonly keptContentStmt
  private readonly markInFileStmt

  constructor(private readonly db: Db) {
    this.markNotInFileStmt = db.prepare(
      "UPDATE messages SET source_ref = json_set(source_ref, '$.notInFile', json('true')) WHERE session_id = ? AND seq >= ? AND json_extract(source_ref, '$.file') IS NOT NULL"
    )
    this.keptStmt = db.prepare(
      `SELECT id, session_id AS sessionRowId, seq, source_uid AS sourceUid, role, tool_call_id AS toolCallId, created_at AS createdAt, length(CAST(content AS BLOB)) AS bytes
       FROM messages WHERE session_id = ? AND (json_extract(source_ref, '$.notInFile') = 1 OR (source_ref IS NULL AND role = 'compaction_summary')) ORDER BY seq`
    )
    this.keptContentStmt = db.prepare('SELECT content, tool_name AS toolName, tool_input AS toolInput, created_at AS createdAt FROM messages WHERE id = ?')
    this.markInFileStmt = db.prepare("UPDATE messages SET source_ref = json_object('file', ?, 'offset', ?) WHERE id = ?")
    this.turnCallsStmt = db.prepare(
      "SELECT seq, role, content, tool_name AS toolName, tool_input AS toolInput FROM messages WHERE session_id = ? AND turn = ? AND role IN ('tool_call', 'user') ORDER BY seq"
    )
    this.repointSourceStmt = db.prepare(
      "UPDATE messages SET source_ref = json_set(source_ref, '$.file', ?) WHERE session_id = ? AND source_ref IS NOT NULL AND json_extract(source_ref, '$.file') = ?"
    )
    this.insertStmt = db.prepare(
      `INSERT INTO messages (session_id, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context,
         model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref, source_uid)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
    )
    this.countContextStmt = db.prepare(`SELECT count(*) AS n FROM messages WHERE session_id = @session ${CONTEXT_FILTER}`)
    this.rowsFromStmt = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq`)
    this.bySourceUidStmt = db.prepare('SELECT id, seq, turn, role, created_at AS createdAt FROM messages WHERE session_id = ? AND source_uid = ? ORDER BY seq LIMIT 1')
    this.attachmentStmt = db.prepare('INSERT INTO message_attachments (message_id, media_type, name, data) VALUES (?, ?, ?, ?)')
    this.toolOfCallStmt = db.prepare("SELECT tool_name FROM messages WHERE session_id = ? AND tool_call_id = ? AND role = 'tool_call' ORDER BY seq LIMIT 1")
    this.byToolCallStmt = db.prepare("SELECT seq FROM messages WHERE session_id = ? AND tool_call_id = ? AND role = 'tool_call' ORDER BY seq LIMIT 1")
    this.latestOfRoleStmt = db.prepare('SELECT id FROM messages WHERE session_id = ? AND role = ? ORDER BY seq DESC LIMIT 1')
    this.addUsageStmt = db.prepare(
      `UPDATE messages SET input_tokens = coalesce(input_tokens, 0) + @inputTokens, output_tokens = coalesce(output_tokens, 0) + @outputTokens,
         cache_read_tokens = coalesce(cache_read_tokens, 0) + @cacheReadTokens, cache_write_tokens = coalesce(cache_write_tokens, 0) + @cacheWriteTokens
       WHERE id = @id`
    )
    this.countFromStmt = db.prepare('SELECT count(*) FROM messages WHERE session_id = ? AND seq >= ?').pluck()
    this.leaveContextStmt = db.prepare('UPDATE messages SET in_context = 0 WHERE session_id = ? AND seq >= ? AND seq < ?')
    this.inContextIdsStmt = db.prepare('SELECT id FROM messages WHERE session_id = ? AND seq >= ? AND seq < ? AND in_context = 1 ORDER BY seq').pluck()
    this.restoreContextStmt = db.prepare('UPDATE messages SET in_context = 1 WHERE id IN (SELECT message_id FROM session_merge_context WHERE merge_id = ?)')
    this.deleteFromStmt = db.prepare('DELETE FROM messages WHERE session_id = ? AND seq >= ?')
    this.lastTurnBeforeStmt = db.prepare('SELECT max(turn) FROM messages WHERE session_id = ? AND seq < ?').pluck()
    this.turnStartStmt = db.prepare('SELECT min(seq) FROM messages WHERE session_id = ? AND turn = ?').pluck()
    this.copyPrefixStmt = db.prepare(
      `INSERT INTO messages (session_id, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context,
         model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref, source_uid)
       SELECT @to, seq, turn, role, content, tool_name, tool_call_id, tool_input, is_error, in_context,
         model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, created_at, source_ref, source_uid
       FROM messages WHERE session_id = @from AND seq < @beforeSeq ORDER BY seq`
    )
  }

  insert(message: NewMessage): number {
    const usage = message.usage
    // Positional: an import inserts a message per line, and binding by name costs a fifth more.
    const result = this.insertStmt.run(
      message.sessionRowId,
      message.seq,
      message.turn,
      message.role,
      message.content,
      message.toolName ?? null,
      message.toolCallId ?? null,
      message.toolInput === undefined || message.toolInput === null ? null : JSON.stringify(message.toolInput),
      message.isError ? 1 : 0,
      message.inContext === false ? 0 : 1,
      message.model ?? null,
      usage?.inputTokens ?? null,
      usage?.outputTokens ?? null,
      usage?.cacheReadTokens ?? null,
      usage?.cacheWriteTokens ?? null,
      usage?.costUsd ?? null,
      message.createdAt ?? null,
      message.sourceRef ? JSON.stringify(message.sourceRef) : null,
      message.sourceUid ?? null
    )
    return Number(result.lastInsertRowid)
  }

  /** The first message of a session with this source id (an imported line's uuid), if any. */
  bySourceUid(sessionRowId: number, sourceUid: string): { id: number; seq: number; turn: number; role: MessageRole; createdAt: number | null } | undefined {
    return this.bySourceUidStmt.get(sessionRowId, sourceUid) as { id: number; seq: number; turn: number; role: MessageRole; createdAt: number | null } | undefined
  }

  /** The seq of the tool call with this id (where a sub-agent it started branches off). */
  /** The tool a session's call `toolCallId` named (null: no such call). */
  toolOfCall(sessionRowId: number, toolCallId: string): string | null {
    return (this.toolOfCallStmt.get(sessionRowId, toolCallId) as { tool_name: string | null } | undefined)?.tool_name ?? null
  }

  seqOfToolCall(sessionRowId: number, toolCallId: string): number | undefined {
    return (this.byToolCallStmt.get(sessionRowId, toolCallId) as { seq: number } | undefined)?.seq
  }

  /** A turn's tool calls and prompts, where its shell commands are (sources/turn-shell-commands.ts). */
  turnCallsAndPrompts(sessionRowId: number, turn: number): { seq: number; role: MessageRole; content: string; toolName: string | null; toolInput: string | null }[] {
    return this.turnCallsStmt.all(sessionRowId, turn) as { seq: number; role: MessageRole; content: string; toolName: string | null; toolInput: string | null }[]
  }

  latestOfRole(sessionRowId: number, role: MessageRole): number | undefined {
    return (this.latestOfRoleStmt.get(sessionRowId, role) as { id: number } | undefined)?.id
  }

  addAttachment(messageId: number, attachment: NewAttachment): void {
    this.attachmentStmt.run(messageId, attachment.mediaType, attachment.name ?? null, attachment.data)
  }

  /** Usage reported after its message was written (Codex `token_count` lines). */
  addUsage(messageId: number, usage: Omit<Usage, 'costUsd'>): void {
    this.addUsageStmt.run({ id: messageId, ...usage })
  }

  /** How many messages a session has from `fromSeq` on. */
  countFrom(sessionRowId: number, fromSeq: number): number {
    return this.countFromStmt.get(sessionRowId, fromSeq) as number
  }

  /** Take a session's messages `fromSeq` ≤ seq < `toSeq` out of its context transcript (they stay displayed). */
  leaveContext(sessionRowId: number, fromSeq: number, toSeq: number): void {
    this.leaveContextStmt.run(sessionRowId, fromSeq, toSeq)
  }

  /** Like leaveContext, returning the ids of the messages that were in context (what an undo puts back). */
  takeOutOfContext(sessionRowId: number, fromSeq: number, toSeq: number): number[] {
    const ids = this.inContextIdsStmt.all(sessionRowId, fromSeq, toSeq) as number[]
    this.leaveContextStmt.run(sessionRowId, fromSeq, toSeq)
    return ids
  }

  /** Put back into context the messages a merge took out (recorded in session_merge_context). */
  restoreMergeContext(mergeId: number): number {
    return this.restoreContextStmt.run(mergeId).changes
  }

  /** Delete a session's messages from `fromSeq` on (an undone merge's); attachments and search entries go with them. */
  deleteFrom(sessionRowId: number, fromSeq: number): number {
    return this.deleteFromStmt.run(sessionRowId, fromSeq).changes
  }

  /** The turn of a session's last message before `seq` (0 if none). */
  lastTurnBefore(sessionRowId: number, seq: number): number {
    return (this.lastTurnBeforeStmt.get(sessionRowId, seq) as number | null) ?? 0
  }

  /** The seq of a turn's first message, or null if the turn has none. */
  turnStart(sessionRowId: number, turn: number): number | null {
    return this.turnStartStmt.get(sessionRowId, turn) as number | null
  }

  /** Stored rows of a session from `fromSeq` on, in order (for merges, which re-append them). */
  rowsFrom(sessionRowId: number, fromSeq: number): StoredMessage[] {
    return (this.rowsFromStmt.all(sessionRowId, fromSeq) as MessageRow[]).map(toStoredMessage)
  }

  /** Copy the first `beforeSeq` display messages of one session into another (a fork's prefix). */
  copyPrefix(fromRowId: number, toRowId: number, beforeSeq: number): number {
    return this.copyPrefixStmt.run({ from: fromRowId, to: toRowId, beforeSeq }).changes
  }

  /**
   * One page of a transcript in ascending seq order. `after`/`before` are exclusive seq bounds;
   * without a bound, `after` starts at the beginning and `before` at the end.
   */
  page(view: TranscriptView, direction: 'after' | 'before', boundSeq: number | null, limit: number) {
    const statement = this.pageStatement(view.transcript, direction, boundSeq !== null)
    const rows = statement.all({ session: view.sessionRowId, start: view.contextStartSeq, bound: boundSeq, limit: limit + 1 }) as MessageRow[]
    const more = rows.length > limit
    const pageRows = rows.slice(0, limit)
    if (direction === 'before') pageRows.reverse()
    const items = pageRows.map((row) => toMessage(row, view.sessionUid))
    const first = items[0]
    const last = items.at(-1)
    // The side we paged toward is known from the extra row; the other side exists iff we came from a bound.
    const hasBefore = direction === 'before' ? more : boundSeq !== null && first !== undefined
    const hasAfter = direction === 'after' ? more : boundSeq !== null && last !== undefined
    return {
      items,
      beforeCursor: hasBefore && first ? String(first.seq) : null,
      afterCursor: hasAfter && last ? String(last.seq) : null
    }
  }

  countContext(sessionRowId: number, contextStartSeq: number): number {
    return (this.countContextStmt.get({ session: sessionRowId, start: contextStartSeq }) as { n: number }).n
  }

  /**
   * Where a session's transcript contains `text` (case-insensitive for ASCII letters, as a
   * substring of the message text or tool input): the seqs of the rows that show it, in order,
   * the first `limit`. A matching tool result counts as its call's row, where it is shown.
   */
  findInSession(view: TranscriptView, text: string, limit: number): { items: { seq: number; turn: number }[]; truncated: boolean } {
    const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
    const filter = view.transcript === 'context' ? CONTEXT_FILTER : ''
    const rows = this.db
      .prepare(
        `SELECT seq, turn, role, tool_call_id FROM messages WHERE session_id = @session ${filter}
           AND (content LIKE @pattern ESCAPE '\\' OR tool_input LIKE @pattern ESCAPE '\\')
         ORDER BY seq LIMIT @limit`
      )
      .all({ session: view.sessionRowId, start: view.contextStartSeq, pattern, limit: limit + 1 }) as { seq: number; turn: number; role: MessageRole; tool_call_id: string | null }[]
    const truncated = rows.length > limit
    const found = rows.slice(0, limit)
    const callSeqs = found.some((row) => row.role === 'tool_result' && row.tool_call_id)
      ? new Map(
          (this.db.prepare(`SELECT tool_call_id, seq FROM messages WHERE session_id = @session ${filter} AND role = 'tool_call' AND tool_call_id IS NOT NULL ORDER BY seq DESC`).all({ session: view.sessionRowId, start: view.contextStartSeq }) as { tool_call_id: string; seq: number }[]).map((row) => [row.tool_call_id, row.seq])
        )
      : new Map<string, number>()
    const bySeq = new Map<number, { seq: number; turn: number }>()
    for (const row of found) {
      const callSeq = row.role === 'tool_result' && row.tool_call_id ? callSeqs.get(row.tool_call_id) : undefined
      // A result is folded into its call's row when the call comes first (it always does in order).
      const seq = callSeq !== undefined && callSeq < row.seq ? callSeq : row.seq
      if (!bySeq.has(seq)) bySeq.set(seq, { seq, turn: row.turn })
    }
    return { items: [...bySeq.values()].sort((a, b) => a.seq - b.seq), truncated }
  }

  private pageStatement(transcript: TranscriptKind, direction: 'after' | 'before', bounded: boolean) {
    const key = `${transcript}|${direction}|${bounded}`
    let statement = this.pageStatements.get(key)
    if (!statement) {
      const filter = transcript === 'context' ? CONTEXT_FILTER : ''
      const bound = bounded ? (direction === 'after' ? 'AND seq > @bound' : 'AND seq < @bound') : ''
      const order = direction === 'after' ? 'ASC' : 'DESC'
      statement = this.db.prepare(
        `SELECT ${COLUMNS} FROM messages WHERE session_id = @session ${filter} ${bound} ORDER BY seq ${order} LIMIT @limit`
      )
      this.pageStatements.set(key, statement)
    }
    return statement
  }

  /**
   * The agent's file no longer holds what was read of it (cut short, or replaced): mark the
   * session's messages read from a file, from `fromSeq` on, as not in it. Reading the file again
   * lifts the mark of each one it still holds (markInFile). Returns how many were marked.
   */
  markNotInFile(sessionRowId: number, fromSeq: number): number {
    return this.markNotInFileStmt.run(sessionRowId, fromSeq).changes
  }

  /** The session's messages a file read again may hold (KeptMessage), in order. */
  kept(sessionRowId: number): KeptMessage[] {
    return this.keptStmt.all(sessionRowId) as KeptMessage[]
  }

  keptContent(id: number): KeptContent | undefined {
    return this.keptContentStmt.get(id) as KeptContent | undefined
  }

  /** The agent's file holds this message (again), at `offset`: its mark goes. */
  markInFile(id: number, file: string, offset: number): void {
    this.markInFileStmt.run(file, offset, id)
  }

  /** The session's lines were read from `from`, now at `to` (the agent moved or recompressed the file): where its messages came from follows. */
  repointSourceFile(sessionRowId: number, from: string, to: string): void {
    this.repointSourceStmt.run(to, sessionRowId, from)
  }
}

/** Transcript cursors are the exclusive seq bound, as a string. */
export function decodeSeqCursor(cursor: string): number {
  if (!/^\d{1,12}$/.test(cursor)) {
    throw new RetraceError('VALIDATION', 'The transcript cursor is not valid; reload the transcript.')
  }
  return Number(cursor)
}

function toStoredMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    seq: row.seq,
    turn: row.turn,
    role: row.role,
    content: row.content,
    toolName: row.tool_name,
    toolCallId: row.tool_call_id,
    toolInput: row.tool_input,
    isError: row.is_error !== 0,
    inContext: row.in_context !== 0,
    model: row.model,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    costUsd: row.cost_usd,
    createdAt: row.created_at,
    sourceRef: row.source_ref
  }
}

function toMessage(row: MessageRow, sessionUid: string): Message {
  const hasUsage = row.input_tokens !== null || row.output_tokens !== null
  return {
    id: row.id,
    sessionId: sessionUid,
    seq: row.seq,
    turn: row.turn,
    role: row.role,
    content: row.content,
    toolName: row.tool_name,
    toolCallId: row.tool_call_id,
    toolInput: row.tool_input === null ? null : (JSON.parse(row.tool_input) as Message['toolInput']),
    isError: row.is_error === 1,
    model: row.model,
    usage: hasUsage
      ? {
          inputTokens: row.input_tokens ?? 0,
          outputTokens: row.output_tokens ?? 0,
          cacheReadTokens: row.cache_read_tokens ?? 0,
          cacheWriteTokens: row.cache_write_tokens ?? 0,
          costUsd: row.cost_usd
        }
      : null,
    createdAt: row.created_at,
    inContext: row.in_context === 1,
    sourceRef: row.source_ref === null ? null : (JSON.parse(row.source_ref) as SourceRef)
  }
}
