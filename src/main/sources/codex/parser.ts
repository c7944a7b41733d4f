import { z } from 'zod'
import type { Usage } from '../../../shared/contract'
import type {
  Attachment,
  CompactionRecord,
  LineParser,
  MessageRecord,
  SessionMetaRecord,
  SourceRecord,
  UsageRecord
} from '../records'
import { applyPatchFromCommand, parseApplyPatch } from './apply-patch'
import { fileEdit, joinPath } from './file-edits'
import { sameTotals, subtractTotals, toTotals, TotalsSchema, type Totals } from './token-totals'
import { flattenContent, imageAttachment, isContextualText, isContextualUserMessage } from './content'
import {
  AgentMessageEventSchema,
  AgentReasoningEventSchema,
  CompactedSchema,
  CustomToolCallSchema,
  describeIssues,
  FunctionCallSchema,
  GhostSnapshotSchema,
  LocalShellCallSchema,
  MessageEventSchema,
  MessageItemSchema,
  ReasoningItemSchema,
  RolloutLineSchema,
  SessionMetaSchema,
  TokenCountEventSchema,
  ToolOutputSchema,
  TurnAbortedEventSchema,
  TurnContextSchema,
  TypedPayloadSchema,
  UserMessageEventSchema,
  WebSearchCallSchema
} from './schemas'
import { readToolOutput, renderCommand, shellInvocation, toolSummary } from './tools'

/**
 * Parser of one Codex CLI rollout (`rollout-<ts>-<uuid>.jsonl`), one `{timestamp, type, payload}`
 * line at a time. Pure: no I/O; everything an incremental resume needs is in `state()`.
 *
 * ## Duplicates between `response_item` and `event_msg` lines
 *
 * Codex persists both the model-facing items (`response_item`) and some UI events (`event_msg`)
 * that restate them. What the fixtures show:
 * - user prompts: 0.77 and 0.125 write the `message` item, then a `user_message` event with the
 *   same text on the next line. Codex Desktop 0.128 writes ONLY the `user_message` event (no user
 *   items at all). So an event is dropped when it restates a user item just written, and becomes
 *   the prompt otherwise. The reverse order (event, then item) is handled the same way.
 * - assistant text: 0.125 writes an `agent_message` event immediately BEFORE each assistant
 *   `message` item (13 of 13); Desktop 0.128 writes the items only.
 * - reasoning: 0.77 writes an `agent_reasoning` event immediately before the `reasoning` item whose
 *   summary it repeats. (0.125 and 0.128 reasoning is encrypted, with empty summaries and no events.)
 * Since the item comes after its event, `agent_message` / `agent_reasoning` events are HELD: kept
 * in the state, dropped if the next record-producing line is the matching item, emitted (at their
 * own offset) before that line's records otherwise. Lines that produce no record (ignored
 * events, repeated token counts) do not release them. A held event at the very end of a file is
 * emitted when a next line arrives; Codex always writes the item right after its event.
 * - compaction (none in the fixtures; codex-rs writes the line, then the event): a top-level
 *   `compacted{message}` line (the summary; empty on remote compaction), a `context_compacted`
 *   event (no summary), and on remote compaction a `compaction` response item (encrypted). One
 *   compaction record per group of these with no conversation record between them: the first
 *   line wins, except that a `context_compacted` event is held and gives way to a `compacted`
 *   line or `compaction` item right after it.
 * - token counts: `token_count` events repeat the same totals (0.77 writes each twice), and
 *   `info` is null before the first response. Usage is emitted only when `total_token_usage`
 *   changes, as that event's `last_token_usage`, so the usage records add up to the last total.
 *
 * ## Usage mapping
 * OpenAI counts cached input inside `input_tokens` and reasoning inside `output_tokens`
 * (`total_tokens = input_tokens + output_tokens` in every fixture line). Retrace's `Usage`
 * follows Anthropic's split, so: `inputTokens = input_tokens - cached_input_tokens`,
 * `cacheReadTokens = cached_input_tokens`, `outputTokens = output_tokens` (reasoning included,
 * not added again), no cache writes.
 */

const PARSER_VERSION = 1

const HeldSchema = z.object({
  kind: z.enum(['assistant', 'reasoning', 'compaction']),
  texts: z.array(z.string()),
  records: z.array(z.custom<SourceRecord>((value) => typeof value === 'object' && value !== null))
})
type Held = z.infer<typeof HeldSchema>


const StateSchema = z.object({
  v: z.literal(PARSER_VERSION),
  sessionId: z.string().nullable(),
  cwd: z.string().nullable(),
  model: z.string().nullable(),
  /** Tool calls without their output yet: call id → tool name. */
  calls: z.record(z.string(), z.string()),
  /** User prompts written by one channel (item or event) that the other may restate. */
  pendingUser: z.array(z.object({ from: z.enum(['item', 'event']), text: z.string() })),
  held: HeldSchema.nullable(),
  lastTotals: TotalsSchema.nullable(),
  /** A compaction record was emitted and no conversation record since: more compaction lines are its copies. */
  compactionOpen: z.boolean()
})
export type CodexParserState = z.infer<typeof StateSchema>

function freshState(): CodexParserState {
  return {
    v: PARSER_VERSION,
    sessionId: null,
    cwd: null,
    model: null,
    calls: {},
    pendingUser: [],
    held: null,
    lastTotals: null,
    compactionOpen: false
  }
}

/** Cap on remembered user prompts; the window is cleared by any non-user record anyway. */
const PENDING_USER_MAX = 8

const ENCRYPTED_REASONING = '(reasoning encrypted by the provider)'
const EMPTY_REASONING = '(reasoning without text)'
const COMPACTION_WITHOUT_SUMMARY = '(context compacted; Codex recorded no summary)'
const REMOTE_COMPACTION = '(context compacted by the provider; the summary is encrypted)'

/** Events that restate what other lines already record, or UI life-cycle only: no record. */
const IGNORED_EVENTS = new Set([
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'terminal_interaction',
  'patch_apply_begin',
  'patch_apply_end',
  'web_search_begin',
  'web_search_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'view_image_tool_call',
  'item_started',
  'item_completed',
  'agent_message_delta',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content_delta',
  'agent_reasoning_section_break',
  'turn_diff',
  'plan_update',
  'session_configured',
  'background_event',
  'stream_error',
  'entered_review_mode',
  'exited_review_mode',
  'undo_started',
  'undo_completed',
  'shutdown_complete',
  'mcp_startup_update',
  'mcp_startup_complete',
  'deprecation_notice'
])

export function createCodexParser(state?: unknown): LineParser {
  return new CodexParser(state)
}

class CodexParser implements LineParser {
  private s: CodexParserState
  private out: SourceRecord[] = []

  constructor(state?: unknown) {
    if (state === undefined || state === null) {
      this.s = freshState()
    } else {
      const parsed = StateSchema.safeParse(state)
      if (!parsed.success) throw new Error(`Codex parser state not understood: ${describeIssues(parsed.error)}`)
      this.s = structuredClone(parsed.data)
    }
  }

  state(): unknown {
    return structuredClone(this.s)
  }

  feed(line: string, offset: number): SourceRecord[] {
    this.out = []
    try {
      this.handleLine(line, offset)
    } catch (error) {
      // Defensive: a bug here must cost one line, not the import.
      this.emit({ kind: 'skipped', offset, reason: `parser error: ${error instanceof Error ? error.message : String(error)}` })
    }
    const out = this.out
    this.out = []
    return out
  }

  // ---- emission, held events, de-duplication windows

  private emit(...records: SourceRecord[]): void {
    if (records.length === 0) return
    this.releaseHeld()
    for (const record of records) this.push(record)
  }

  private push(record: SourceRecord): void {
    if (record.kind === 'message' && record.role !== 'system') {
      if (record.role !== 'user') this.s.pendingUser = []
      this.s.compactionOpen = false
    }
    this.out.push(record)
  }

  private releaseHeld(): void {
    const held = this.s.held
    if (!held) return
    this.s.held = null
    for (const record of held.records) this.push(record)
  }

  private hold(kind: Held['kind'], text: string, record: SourceRecord): void {
    const held = this.s.held
    if (held && held.kind === kind && kind === 'reasoning') {
      held.texts.push(text)
      held.records.push(record)
      return
    }
    this.releaseHeld()
    this.s.held = { kind, texts: [text], records: [record] }
  }

  /**
   * Drops the held event(s) when this line restates them (`texts`; null: any line of that kind
   * does); true when it did.
   */
  private takeHeld(kind: Held['kind'], texts: string[] | null): boolean {
    const held = this.s.held
    if (!held || held.kind !== kind) return false
    if (texts === null) {
      this.s.held = null
      return true
    }
    const have = new Set(texts.map(normalize))
    const joined = normalize(texts.join('\n'))
    const matches =
      held.texts.every((text) => have.has(normalize(text))) ||
      normalize(held.texts.join('\n')) === joined ||
      normalize(held.texts.join('\n\n')) === joined
    if (!matches) return false
    this.s.held = null
    return true
  }

  /** A user prompt seen on one channel: true when it restates one just seen on the other. */
  private isUserDuplicate(from: 'item' | 'event', text: string): boolean {
    const other = from === 'item' ? 'event' : 'item'
    const pending = this.s.pendingUser
    let index = pending.findIndex((p) => p.from === other && normalize(p.text) === normalize(text))
    // Codex writes exactly one event per user item; accept a restatement that differs in form.
    if (index === -1) index = pending.findIndex((p) => p.from === other)
    if (index !== -1) {
      pending.splice(index, 1)
      return true
    }
    pending.push({ from, text })
    if (pending.length > PENDING_USER_MAX) pending.splice(0, pending.length - PENDING_USER_MAX)
    return false
  }

  // ---- lines

  private handleLine(line: string, offset: number): void {
    if (line.trim() === '') return
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (error) {
      this.skip(offset, `invalid JSON (${error instanceof Error ? error.message : 'parse error'}; a truncated or corrupted line)`)
      return
    }
    const parsed = RolloutLineSchema.safeParse(json)
    if (!parsed.success) {
      this.skip(offset, `not a rollout line {timestamp, type, payload}: ${describeIssues(parsed.error)}`)
      return
    }
    const { type, payload } = parsed.data
    if (payload === undefined || payload === null) {
      this.skip(offset, `${type} line without a payload`)
      return
    }
    if (typeof payload !== 'object' || Array.isArray(payload)) {
      this.skip(offset, `${type} line whose payload is not an object`)
      return
    }
    const createdAt = parseTime(parsed.data.timestamp)
    switch (type) {
      case 'session_meta':
        return this.sessionMeta(payload, offset, createdAt)
      case 'turn_context':
        return this.turnContext(payload, offset)
      case 'response_item':
        return this.responseItem(payload, offset, createdAt)
      case 'event_msg':
        return this.event(payload, offset, createdAt)
      case 'compacted':
        return this.compacted(payload, offset, createdAt)
      default:
        this.skip(offset, `unknown line type '${type}'`)
    }
  }

  private skip(offset: number, reason: string): void {
    this.emit({ kind: 'skipped', offset, reason })
  }

  private check<T>(schema: z.ZodType<T>, payload: unknown, offset: number, what: string): T | null {
    const parsed = schema.safeParse(payload)
    if (parsed.success) return parsed.data
    this.skip(offset, `${what}: ${describeIssues(parsed.error)}`)
    return null
  }

  private sessionMeta(payload: unknown, offset: number, lineTime: number | undefined): void {
    const meta = this.check(SessionMetaSchema, payload, offset, 'session_meta')
    if (!meta) return
    if (this.s.sessionId !== null && meta.id !== this.s.sessionId) {
      this.skip(offset, `session_meta of another session (${meta.id}) inside the rollout of ${this.s.sessionId}: ignored`)
      return
    }
    if (this.s.sessionId === meta.id) {
      // A repeated header of the same session (resumed rollout): only what changed.
      this.metaChanges(offset, meta.cwd, meta.model ?? undefined)
      return
    }
    this.s.sessionId = meta.id
    const record: SessionMetaRecord = { kind: 'session-meta', offset, sessionId: meta.id }
    const createdAt = parseTime(meta.timestamp) ?? lineTime
    if (createdAt !== undefined) record.createdAt = createdAt
    if (meta.cwd) {
      record.cwd = meta.cwd
      this.s.cwd = meta.cwd
    }
    if (meta.model) {
      record.model = meta.model
      this.s.model = meta.model
    }
    if (meta.git?.branch) record.gitBranch = meta.git.branch
    if (meta.forked_from_id) record.forkedFrom = { sessionId: meta.forked_from_id, messageUid: null }
    this.emit(record)
  }

  private turnContext(payload: unknown, offset: number): void {
    const context = this.check(TurnContextSchema, payload, offset, 'turn_context')
    if (!context) return
    this.metaChanges(offset, context.cwd, context.model)
  }

  /** A session-meta record with the cwd / model that differ from the last ones emitted, if any. */
  private metaChanges(offset: number, cwd: string | undefined, model: string | undefined): void {
    const record: SessionMetaRecord = { kind: 'session-meta', offset }
    if (cwd && cwd !== this.s.cwd) {
      record.cwd = cwd
      this.s.cwd = cwd
    }
    if (model && model !== this.s.model) {
      record.model = model
      this.s.model = model
    }
    if (record.cwd !== undefined || record.model !== undefined) this.emit(record)
  }

  // ---- response items

  private responseItem(payload: unknown, offset: number, createdAt: number | undefined): void {
    const typed = this.check(TypedPayloadSchema, payload, offset, 'response_item')
    if (!typed) return
    switch (typed.type) {
      case 'message':
        return this.messageItem(payload, offset, createdAt)
      case 'reasoning':
        return this.reasoningItem(payload, offset, createdAt)
      case 'function_call':
        return this.functionCall(payload, offset, createdAt)
      case 'custom_tool_call':
        return this.customToolCall(payload, offset, createdAt)
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.toolOutput(typed.type, payload, offset, createdAt)
      case 'local_shell_call':
        return this.localShellCall(payload, offset, createdAt)
      case 'web_search_call':
        return this.webSearchCall(payload, offset, createdAt)
      case 'ghost_snapshot': {
        const ghost = this.check(GhostSnapshotSchema, payload, offset, 'response_item ghost_snapshot')
        if (ghost) this.emit({ kind: 'note', offset, text: `ghost snapshot ${ghost.ghost_commit.id} (Codex /undo anchor)` })
        return
      }
      case 'compaction':
      case 'compaction_summary':
        return this.compaction(REMOTE_COMPACTION, offset, createdAt)
      default:
        this.skip(offset, `response_item type '${typed.type}' is not imported`)
    }
  }

  private message(offset: number, role: MessageRecord['role'], content: string, createdAt: number | undefined, extra: Partial<MessageRecord> = {}): MessageRecord {
    const record: MessageRecord = {
      kind: 'message',
      offset,
      uid: null,
      parentUid: null,
      agentId: null,
      startsTurn: false,
      role,
      content,
      ...extra
    }
    if (createdAt !== undefined) record.createdAt = createdAt
    return record
  }

  private messageItem(payload: unknown, offset: number, createdAt: number | undefined): void {
    const item = this.check(MessageItemSchema, payload, offset, 'response_item message')
    if (!item) return
    const { texts, attachments } = flattenContent(item.content)
    const text = texts.join('\n')
    const extra: Partial<MessageRecord> = {}
    if (item.id) extra.uid = item.id
    if (attachments.length > 0) extra.attachments = attachments
    switch (item.role) {
      case 'user':
        if (isContextualUserMessage(texts)) {
          // Context Codex gives the model (AGENTS.md, environment, skills…): kept, not a turn.
          this.emit(this.message(offset, 'system', text, createdAt, extra))
          return
        }
        if (this.isUserDuplicate('item', text)) return
        this.emit(this.message(offset, 'user', text, createdAt, { ...extra, startsTurn: true }))
        return
      case 'assistant':
        // Positional: the agent_message event right before an assistant item is its copy.
        this.takeHeld('assistant', null)
        if (this.s.model) extra.model = this.s.model
        this.emit(this.message(offset, 'assistant', text, createdAt, extra))
        return
      case 'developer':
      case 'system':
        this.emit(this.message(offset, 'system', text, createdAt, extra))
        return
      default:
        this.skip(offset, `response_item message with role '${item.role}' is not imported`)
    }
  }

  private reasoningItem(payload: unknown, offset: number, createdAt: number | undefined): void {
    const item = this.check(ReasoningItemSchema, payload, offset, 'response_item reasoning')
    if (!item) return
    const summary = (item.summary ?? []).map((part) => part.text ?? '').filter((t) => t.trim() !== '')
    const raw = (item.content ?? []).map((part) => part.text ?? '').filter((t) => t.trim() !== '')
    this.takeHeld('reasoning', [...summary, ...raw])
    const texts = summary.length > 0 ? summary : raw
    const content = texts.length > 0 ? texts.join('\n\n') : item.encrypted_content ? ENCRYPTED_REASONING : EMPTY_REASONING
    const extra: Partial<MessageRecord> = {}
    if (item.id) extra.uid = item.id
    if (this.s.model) extra.model = this.s.model
    this.emit(this.message(offset, 'reasoning', content, createdAt, extra))
  }

  private functionCall(payload: unknown, offset: number, createdAt: number | undefined): void {
    const call = this.check(FunctionCallSchema, payload, offset, 'response_item function_call')
    if (!call) return
    let input: unknown = call.arguments
    if (typeof call.arguments === 'string') {
      try {
        input = JSON.parse(call.arguments)
      } catch {
        input = call.arguments
      }
    }
    let patch: { text: string; base: string | null } | null = null
    const shell = shellInvocation(call.name, input)
    if (call.name === 'apply_patch') {
      const o = input && typeof input === 'object' ? (input as Record<string, unknown>) : null
      const text = typeof input === 'string' ? input : typeof o?.input === 'string' ? o.input : typeof o?.patch === 'string' ? o.patch : null
      patch = text === null ? null : { text, base: null }
    } else if (shell) {
      const found = applyPatchFromCommand(shell.command)
      if (found) patch = { text: found.patch, base: joinPath(shell.workdir, found.cd) }
    }
    this.toolCall(offset, createdAt, call.name, call.call_id, input, patch, patch ? null : shell ? renderCommand(shell.command) : null)
  }

  private customToolCall(payload: unknown, offset: number, createdAt: number | undefined): void {
    const call = this.check(CustomToolCallSchema, payload, offset, 'response_item custom_tool_call')
    if (!call) return
    const patch = call.name === 'apply_patch' ? { text: call.input, base: null } : null
    this.toolCall(offset, createdAt, call.name, call.call_id, call.input, patch, null)
  }

  private localShellCall(payload: unknown, offset: number, createdAt: number | undefined): void {
    const call = this.check(LocalShellCallSchema, payload, offset, 'response_item local_shell_call')
    if (!call) return
    const callId = call.call_id ?? call.id ?? null
    const argv = call.action.command ?? []
    const found = argv.length > 0 ? applyPatchFromCommand(argv) : null
    const patch = found ? { text: found.patch, base: joinPath(call.action.working_directory ?? null, found.cd) } : null
    const input: Record<string, unknown> = { ...call.action, command: argv }
    if (call.action.working_directory) input.workdir = call.action.working_directory
    this.toolCall(offset, createdAt, 'local_shell', callId, input, patch, !patch && argv.length > 0 ? renderCommand(argv) : null)
  }

  private webSearchCall(payload: unknown, offset: number, createdAt: number | undefined): void {
    const call = this.check(WebSearchCallSchema, payload, offset, 'response_item web_search_call')
    if (!call) return
    // The item carries no call_id (the web_search_end event's id is not on it), and no output
    // item follows: the search results go to the model only.
    this.toolCall(offset, createdAt, 'web_search', call.id ?? null, call.action ?? null, null, null)
  }

  /**
   * The `tool_call` message, then what the call did to files: `file-edit` records for a patch
   * (or a skipped record saying why the patch was not understood), a `shell-command` record
   * for a shell command.
   */
  private toolCall(
    offset: number,
    createdAt: number | undefined,
    toolName: string,
    callId: string | null,
    input: unknown,
    patch: { text: string; base: string | null } | null,
    command: string | null
  ): void {
    const parsed = patch ? parseApplyPatch(patch.text) : null
    const ops = parsed?.ok ? parsed.ops : null
    const extra: Partial<MessageRecord> = { toolName, toolInput: input }
    if (callId !== null) extra.toolCallId = callId
    const records: SourceRecord[] = [this.message(offset, 'tool_call', toolSummary(toolName, input, ops), createdAt, extra)]
    if (callId !== null) this.s.calls[callId] = toolName
    if (parsed && !parsed.ok) {
      records.push({ kind: 'skipped', offset, reason: `apply_patch not understood: ${parsed.error}` })
    } else if (ops && patch) {
      for (const op of ops) records.push(fileEdit(op, offset, callId, patch.base))
    } else if (command !== null) {
      records.push({ kind: 'shell-command', offset, toolCallId: callId, command })
    }
    this.emit(...records)
  }

  private toolOutput(type: string, payload: unknown, offset: number, createdAt: number | undefined): void {
    const item = this.check(ToolOutputSchema, payload, offset, `response_item ${type}`)
    if (!item) return
    const output = readToolOutput(item.output)
    const toolName = this.s.calls[item.call_id]
    delete this.s.calls[item.call_id]
    const extra: Partial<MessageRecord> = {
      toolCallId: item.call_id,
      isError: (output.exitCode !== null && output.exitCode !== 0) || output.success === false
    }
    if (toolName !== undefined) extra.toolName = toolName
    if (output.images.length > 0) extra.attachments = output.images.map(imageAttachment)
    this.emit(this.message(offset, 'tool_result', output.text, createdAt, extra))
  }

  // ---- events

  private event(payload: unknown, offset: number, createdAt: number | undefined): void {
    const typed = this.check(TypedPayloadSchema, payload, offset, 'event_msg')
    if (!typed) return
    switch (typed.type) {
      case 'user_message':
        return this.userMessageEvent(payload, offset, createdAt)
      case 'agent_message': {
        const event = this.check(AgentMessageEventSchema, payload, offset, 'event_msg agent_message')
        if (!event) return
        const extra: Partial<MessageRecord> = this.s.model ? { model: this.s.model } : {}
        this.hold('assistant', event.message, this.message(offset, 'assistant', event.message, createdAt, extra))
        return
      }
      case 'agent_reasoning':
      case 'agent_reasoning_raw_content': {
        const event = this.check(AgentReasoningEventSchema, payload, offset, `event_msg ${typed.type}`)
        if (!event) return
        const extra: Partial<MessageRecord> = this.s.model ? { model: this.s.model } : {}
        this.hold('reasoning', event.text, this.message(offset, 'reasoning', event.text, createdAt, extra))
        return
      }
      case 'token_count':
        return this.tokenCount(payload, offset, createdAt)
      case 'turn_aborted': {
        const event = this.check(TurnAbortedEventSchema, payload, offset, 'event_msg turn_aborted')
        if (!event) return
        this.emit(this.message(offset, 'system', event.reason ? `Turn aborted (${event.reason})` : 'Turn aborted', createdAt))
        return
      }
      case 'context_compacted':
        if (this.s.compactionOpen) return
        this.hold('compaction', '', compactionRecord(offset, COMPACTION_WITHOUT_SUMMARY, createdAt))
        return
      case 'error':
      case 'warning': {
        const event = this.check(MessageEventSchema, payload, offset, `event_msg ${typed.type}`)
        if (!event) return
        this.emit(this.message(offset, 'system', `${typed.type === 'error' ? 'Error' : 'Warning'}: ${event.message}`, createdAt))
        return
      }
      default:
        if (IGNORED_EVENTS.has(typed.type)) return
        this.skip(offset, `event_msg type '${typed.type}' is not imported`)
    }
  }

  private userMessageEvent(payload: unknown, offset: number, createdAt: number | undefined): void {
    const event = this.check(UserMessageEventSchema, payload, offset, 'event_msg user_message')
    if (!event) return
    // Some releases tag context messages with a kind; their items are the system messages.
    if ((event.kind && event.kind !== 'plain') || isContextualText(event.message)) return
    if (this.isUserDuplicate('event', event.message)) return
    const attachments: Attachment[] = [
      ...(event.images ?? []).map(imageAttachment),
      ...(event.local_images ?? []).flatMap((image) => {
        const path = typeof image === 'string' ? image : image && typeof image === 'object' ? (image as Record<string, unknown>).path : null
        return typeof path === 'string' ? [imageAttachment(path)] : []
      })
    ]
    const extra: Partial<MessageRecord> = { startsTurn: true }
    if (attachments.length > 0) extra.attachments = attachments
    this.emit(this.message(offset, 'user', event.message, createdAt, extra))
  }

  private tokenCount(payload: unknown, offset: number, createdAt: number | undefined): void {
    const event = this.check(TokenCountEventSchema, payload, offset, 'event_msg token_count')
    if (!event?.info) return // null before the first response (rate-limit updates only)
    const totals = toTotals(event.info.total_token_usage)
    const previous = this.s.lastTotals
    if (previous && sameTotals(previous, totals)) return
    this.s.lastTotals = totals
    let last: Totals
    if (event.info.last_token_usage) last = toTotals(event.info.last_token_usage)
    else if (previous && totals.total >= previous.total) last = subtractTotals(totals, previous)
    else last = totals
    const usage: Partial<Usage> = {
      inputTokens: Math.max(0, last.input - last.cached),
      cacheReadTokens: last.cached,
      outputTokens: last.output
    }
    const record: UsageRecord = { kind: 'usage', offset, usage }
    if (createdAt !== undefined) record.createdAt = createdAt
    this.emit(record)
  }

  // ---- compaction

  private compacted(payload: unknown, offset: number, createdAt: number | undefined): void {
    const item = this.check(CompactedSchema, payload, offset, 'compacted')
    if (!item) return
    const summary = item.message.trim() ? item.message : REMOTE_COMPACTION
    this.compaction(summary, offset, createdAt)
  }

  private compaction(summary: string, offset: number, createdAt: number | undefined): void {
    this.takeHeld('compaction', null)
    if (this.s.compactionOpen) return
    this.emit(compactionRecord(offset, summary, createdAt))
    this.s.compactionOpen = true
  }
}

function compactionRecord(offset: number, summary: string, createdAt: number | undefined): CompactionRecord {
  const record: CompactionRecord = { kind: 'compaction', offset, uid: null, summary }
  if (createdAt !== undefined) record.createdAt = createdAt
  return record
}

function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n').trim()
}

function parseTime(value: string | undefined): number | undefined {
  if (!value) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
