import type { z } from 'zod'
import type { ChangeNotCapturedRecord, CompactionRecord, FileEditRecord, MessageRecord, SessionMetaRecord, SourceRecord } from '../records'
import { editOfCall, fileOfCall, noteRead, notebookEdit } from './call-edits'
import { classifyUserText, flattenBlocks, isLocalCommandCaveat, oneLine, promptWords, splitIdeContext, stripAnsi, summarizeToolInput } from './content'
import { AssistantLineSchema, type Block, type LineBase, SystemLineSchema, TextBlockSchema, ThinkingBlockSchema, ToolResultBlockSchema, ToolUseBlockSchema, UserLineSchema, describeIssue } from './schema'
import type { ObservedLine } from './rewinds'
import type { ParserState } from './state'
import { systemText } from './system'
import { fileEditRecord, isAgentTool, subAgentLinkRecord, textAgentLink, workflowRunLink } from './tool-results'
import { promptDigest, sidechainAgent } from './sidechains'
import { attributeUsage } from './usage'

// One Claude Code line turned into records, by its type (parser.ts reads the line and picks the
// method): messages with their uids and parents, the session's facts and titles, sub-agent links.

const IGNORED_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set(['turn_duration', 'microcompact_boundary', 'compact_boundary'])

/** Longest first-prompt title, in characters. */
const TITLE_LENGTH = 80

type Parsed<T> = { success: true; data: T } | { success: false; error: z.ZodError }

/** `toolUseResult.persistedOutputPath`: where a Bash result's whole output was saved. */
function persistedOutputPath(toolUseResult: unknown): string | undefined {
  const path = toolUseResult !== null && typeof toolUseResult === 'object' ? (toolUseResult as { persistedOutputPath?: unknown }).persistedOutputPath : undefined
  return typeof path === 'string' && path !== '' ? path : undefined
}

/** The records of one line, and what it changes in the parser's state. */
export class Line {
  readonly records: SourceRecord[] = []
  /** Message and compaction records made from this line (they carry uids). */
  private uids: string[] = []
  private metaRecord: SessionMetaRecord | null = null
  private readonly parentUid: string | null
  private readonly createdAt: number | undefined
  /** The API response of an assistant line (`message.id`). */
  private messageId: string | null = null
  /** The sub-agent whose transcript this line is part of (sidechain lines), else null. */
  private readonly agentId: string | null

  constructor(
    private readonly state: ParserState,
    private readonly base: LineBase,
    private readonly json: object,
    private readonly offset: number
  ) {
    const parent = base.parentUuid ?? (base.type === 'system' ? base.logicalParentUuid : null) ?? null
    this.parentUid = parent === null ? null : this.resolve(parent)
    const time = base.timestamp ? Date.parse(base.timestamp) : NaN
    this.createdAt = Number.isNaN(time) ? undefined : time
    const sidechain = sidechainAgent(state, base, json, offset)
    this.agentId = sidechain.agentId
    // Before the line's messages: the agent's session is made knowing its call.
    if (sidechain.link) this.records.push(sidechain.link)
  }

  /** The uid a reference to line `uuid` means: itself, or what stands in for it. */
  private resolve(uuid: string): string | null {
    return this.state.aliases.has(uuid) ? (this.state.aliases.get(uuid) ?? null) : uuid
  }

  skip(reason: string): void {
    this.records.push({ kind: 'skipped', offset: this.offset, reason })
  }

  /** Something well-formed of a kind the importer does not read: counted by Claude Code version (records.ts). */
  unread(what: string): void {
    this.records.push({ kind: 'unread', offset: this.offset, what, agentVersion: this.base.version ?? null })
  }

  /**
   * A message record. The first one of a line takes the line's `uuid`; further ones (a line
   * with several content blocks) take `<uuid>:<n>` and hang below the previous one, so that the
   * line still reads as one chain.
   */
  private message(fields: Omit<MessageRecord, 'kind' | 'offset' | 'uid' | 'parentUid' | 'agentId' | 'startsTurn'> & { startsTurn?: boolean }): MessageRecord {
    const uuid = this.base.uuid ?? null
    const n = this.uids.length
    const uid = uuid === null ? null : n === 0 ? uuid : `${uuid}:${n}`
    const previous = this.uids[n - 1]
    const record: MessageRecord = {
      kind: 'message',
      offset: this.offset,
      uid,
      parentUid: previous ?? this.parentUid,
      agentId: this.agentId,
      startsTurn: false,
      ...fields
    }
    if (this.createdAt !== undefined) record.createdAt = this.createdAt
    if (uid !== null) this.uids.push(uid)
    this.records.push(record)
    return record
  }

  /** Records in order, the line's uuid remembered when it does not name exactly one record. */
  finish(): SourceRecord[] {
    const uuid = this.base.uuid
    if (uuid) {
      if (this.uids.length === 0) this.state.aliases.set(uuid, this.parentUid)
      else if (this.uids.length > 1) this.state.aliases.set(uuid, this.uids[this.uids.length - 1] ?? uuid)
    }
    return this.records
  }

  /**
   * The line as a start of a prompt or an answer, for finding rewinds; null for other lines and
   * sidechain lines (a sub-agent's lines are not the session's).
   */
  lineStart(): ObservedLine | null {
    if (this.base.isSidechain === true) return null
    const first = this.records.find((record): record is MessageRecord => record.kind === 'message')
    if (!first?.uid || first.uid !== this.base.uuid) return null
    const line = { uid: first.uid, writtenParent: this.base.parentUuid ?? null, parentUid: first.parentUid, timestamp: this.base.timestamp ?? null }
    if (first.startsTurn) return { kind: 'prompt', ...line, messageId: null }
    if (this.base.type !== 'assistant') return null
    return { kind: 'answer', ...line, messageId: this.messageId }
  }

  /** A session-meta record with whatever this line changes (cwd, branch, session, fork, model). */
  private meta(model?: string): void {
    const meta = this.state.meta
    const record: SessionMetaRecord = { kind: 'session-meta', offset: this.offset }
    let changed = false
    const sessionId = this.base.sessionId ?? this.base.session_id
    if (sessionId && sessionId !== meta.sessionId) {
      record.sessionId = meta.sessionId = sessionId
      changed = true
    }
    if (this.base.cwd && this.base.cwd !== meta.cwd) {
      record.cwd = meta.cwd = this.base.cwd
      changed = true
    }
    if (this.base.gitBranch && this.base.gitBranch !== meta.gitBranch) {
      record.gitBranch = meta.gitBranch = this.base.gitBranch
      changed = true
    }
    if (this.base.forkedFrom) {
      const forkedFrom = { sessionId: this.base.forkedFrom.sessionId, messageUid: this.base.forkedFrom.messageUuid ?? null }
      const key = JSON.stringify(forkedFrom)
      if (key !== meta.forkedFrom) {
        record.forkedFrom = forkedFrom
        meta.forkedFrom = key
        changed = true
      }
    }
    if (model && model !== meta.model) {
      record.model = meta.model = model
      changed = true
    }
    if (!meta.createdAt && this.createdAt !== undefined) {
      record.createdAt = this.createdAt
      meta.createdAt = true
      changed = true
    }
    if (changed) {
      this.records.push(record)
      this.metaRecord = record
    }
  }

  /** A title, when it differs from the last one emitted. */
  title<T>(parsed: Parsed<T>, origin: NonNullable<SessionMetaRecord['titleOrigin']>, pick: (data: T) => string): void {
    if (!parsed.success) return this.skip(`${this.base.type} line: ${describeIssue(parsed.error)}`)
    this.emitTitle(pick(parsed.data).trim(), origin)
  }

  /**
   * A `summary` line titles the session holding its `leafUuid` message: Claude Code writes the
   * summaries of earlier sessions at the top of a new session's file (a file may hold nothing
   * else), so the session is found by that message, not by the file the line is in.
   */
  summary(parsed: Parsed<{ summary: string; leafUuid?: unknown }>): void {
    if (!parsed.success) return this.skip(`summary line: ${describeIssue(parsed.error)}`)
    const leaf = parsed.data.leafUuid
    if (typeof leaf !== 'string' || leaf === '') return this.emitTitle(parsed.data.summary.trim(), 'summary')
    const title = parsed.data.summary.trim()
    if (title) this.records.push({ kind: 'session-meta', offset: this.offset, title, titleOrigin: 'summary', titleLeafUid: leaf })
  }

  private emitTitle(title: string, origin: NonNullable<SessionMetaRecord['titleOrigin']>): void {
    if (!title) return
    const key = `${origin}\n${title}`
    if (key === this.state.meta.title) return
    this.state.meta.title = key
    // One session-meta record per line: the title joins the one this line already made.
    if (this.metaRecord) Object.assign(this.metaRecord, { title, titleOrigin: origin })
    else this.records.push({ kind: 'session-meta', offset: this.offset, title, titleOrigin: origin })
  }

  /** The first prompt names the session, unless a real title came first. */
  private firstPrompt(text: string): void {
    if (this.state.meta.firstPrompt) return
    // The IDE's "The user opened the file …" is not what the session is about.
    const title = oneLine(promptWords(text), TITLE_LENGTH)
    if (!title) return
    this.state.meta.firstPrompt = true
    if (this.state.meta.title === null) this.emitTitle(title, 'first-prompt')
  }

  user(): void {
    const parsed = UserLineSchema.safeParse(this.json)
    if (!parsed.success) return this.skip(`user line: ${describeIssue(parsed.error)}`)
    this.meta()
    const { message, isMeta, isCompactSummary, toolUseResult } = parsed.data
    if (isCompactSummary) return this.compaction(flattenBlocks(message.content).text)
    const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    const other: Block[] = []
    let first = true
    for (const block of blocks) {
      if (block.type !== 'tool_result') {
        other.push(block)
        continue
      }
      this.toolResult(block, first ? toolUseResult : undefined)
      first = false
    }
    if (other.length) this.userText(other, isMeta === true)
  }

  private toolResult(block: Block, toolUseResult: unknown): void {
    const parsed = ToolResultBlockSchema.safeParse(block)
    if (!parsed.success) return this.skip(`${block.type} block: ${describeIssue(parsed.error)}`)
    const { tool_use_id: toolCallId, content, is_error: isError } = parsed.data
    const call = this.state.pending.get(toolCallId)
    this.state.pending.delete(toolCallId)
    const flat = flattenBlocks(content)
    const saved = this.state.savedOutput?.(flat.text, persistedOutputPath(toolUseResult)) ?? null
    const record = this.message({ role: 'tool_result', content: saved ?? flat.text, toolCallId, isError: isError === true })
    if (call) record.toolName = call.name
    if (flat.attachments.length) record.attachments = flat.attachments
    const structured = toolUseResult !== null && typeof toolUseResult === 'object'
    const link = (structured ? subAgentLinkRecord(toolUseResult, toolCallId, call?.description, this.offset) : null) ?? (call && isAgentTool(call.name) ? textAgentLink(flat.text, toolCallId, call.description, this.offset) : null)
    if (link) this.records.push(link)
    const run = structured ? workflowRunLink(toolUseResult, call?.name, toolCallId, this.offset) : null
    if (run) this.records.push(run)
    if (isError === true || !call?.file) {
      if (!structured) return
      const edit = fileEditRecord(toolUseResult, call?.name, toolCallId, this.offset)
      if (edit) this.fileChange(edit)
      return
    }
    const file = call.file
    const edit =
      call.name === 'NotebookEdit' && structured
        ? notebookEdit(toolUseResult, file.path, toolCallId, this.offset)
        : ((structured ? fileEditRecord(toolUseResult, call.name, toolCallId, this.offset) : null) ?? editOfCall(this.state, { ...call, file }, flat.text, toolCallId, this.offset))
    if (edit) this.fileChange(edit)
  }

  /** A file change of a tool call; the agent's own change is again what the file holds. */
  private fileChange(record: FileEditRecord | ChangeNotCapturedRecord): void {
    if (record.path !== null) this.state.reread.delete(record.path)
    this.records.push(record)
  }

  /** Text, images and documents of a user line: a prompt, a command, or system output. */
  private userText(blocks: Block[], isMeta: boolean): void {
    const flat = flattenBlocks(blocks)
    if (flat.text.trim() === '' && flat.attachments.length === 0) return
    const attachments = flat.attachments.length ? { attachments: flat.attachments } : {}
    const text = classifyUserText(flat.text)
    if (isLocalCommandCaveat(flat.text)) this.state.caveat = this.base.uuid ?? null
    if (isMeta) {
      // Skill bodies, caveats and other context Claude Code injected in the user's name.
      const content = text.kind === 'system' ? text.text : stripAnsi(flat.text).trim()
      this.message({ role: 'system', content, ...attachments })
      return
    }
    switch (text.kind) {
      case 'system':
        if (text.text === '' && !flat.attachments.length) return
        this.message({ role: 'system', content: text.text, ...attachments })
        return
      case 'prompt': {
        this.firstPrompt(text.text)
        // The IDE's blocks follow the prompt as context of its turn (a prompt of nothing else stays whole).
        const ide = splitIdeContext(text.text)
        const words = ide.prompt && ide.context.length ? ide.prompt : text.text
        this.message({ role: 'user', content: words, startsTurn: true, ...attachments })
        if (words !== text.text) for (const context of ide.context) this.message({ role: 'system', content: context })
        return
      }
      case 'command':
        if (this.parentUid !== null && this.parentUid === this.state.caveat) {
          // A local command: Claude Code answered it itself (as it does for the ones it writes
          // as `local_command` system lines); no request to the agent, no turn.
          this.message({ role: 'system', content: text.text, ...attachments })
          return
        }
        // `/mcp` alone says little about a session; `/review the auth module` does.
        if (text.args) this.firstPrompt(text.text)
        this.message({ role: 'user', content: text.text, startsTurn: true, ...attachments })
        return
      case 'bash':
        this.message({ role: 'user', content: text.text, startsTurn: true, ...attachments })
        this.records.push({ kind: 'shell-command', offset: this.offset, toolCallId: null, command: text.command })
        return
    }
  }

  private compaction(summary: string): void {
    const boundary = this.state.boundary
    this.state.boundary = null
    const uid = this.base.uuid ?? null
    const record: CompactionRecord = { kind: 'compaction', offset: this.offset, uid, parentUid: this.parentUid, summary }
    if (this.createdAt !== undefined) record.createdAt = this.createdAt
    if (boundary?.trigger) record.trigger = boundary.trigger
    if (boundary?.preTokens != null) record.preTokens = boundary.preTokens
    if (uid !== null) this.uids.push(uid)
    this.records.push(record)
  }

  assistant(): void {
    const parsed = AssistantLineSchema.safeParse(this.json)
    if (!parsed.success) return this.skip(`assistant line: ${describeIssue(parsed.error)}`)
    const { message, isApiErrorMessage } = parsed.data
    this.messageId = message.id ?? null
    const model = message.model && message.model !== '<synthetic>' ? message.model : undefined
    this.meta(model)
    const from = this.records.length
    const blocks: Block[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    for (const block of blocks) this.assistantBlock(block, model, isApiErrorMessage === true)
    const firstMessage = this.records.slice(from).find((record): record is MessageRecord => record.kind === 'message')
    // A line that made no message (only empty text) leaves its usage to the next line of the response.
    if (firstMessage && message.usage) {
      const usage = attributeUsage(this.state.usage, message.id ?? null, message.usage)
      if (usage) firstMessage.usage = usage
    }
  }

  private assistantBlock(block: Block, model: string | undefined, isError: boolean): void {
    const withModel = model ? { model } : {}
    switch (block.type) {
      case 'text': {
        const text = TextBlockSchema.safeParse(block)
        if (!text.success) return this.skip(`text block: ${describeIssue(text.error)}`)
        if (text.data.text.trim() === '') return
        this.message({ role: 'assistant', content: text.data.text, ...withModel, ...(isError ? { isError } : {}) })
        return
      }
      case 'thinking': {
        const thinking = ThinkingBlockSchema.safeParse(block)
        if (!thinking.success) return this.skip(`thinking block: ${describeIssue(thinking.error)}`)
        if (thinking.data.thinking.trim() === '') return
        this.message({ role: 'reasoning', content: thinking.data.thinking, ...withModel })
        return
      }
      case 'redacted_thinking':
        this.message({ role: 'reasoning', content: '[redacted thinking]', ...withModel })
        return
      case 'tool_use':
      case 'server_tool_use': {
        const call = ToolUseBlockSchema.safeParse(block)
        if (!call.success) return this.skip(`${block.type} block: ${describeIssue(call.error)}`)
        const { id, name, input } = call.data
        this.message({
          role: 'tool_call',
          content: summarizeToolInput(name, input),
          toolName: name,
          toolCallId: id,
          toolInput: input,
          ...withModel
        })
        const fields = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {}
        const description = typeof fields.description === 'string' ? fields.description : null
        const agentCall = isAgentTool(name)
        const file = fileOfCall(this.state, name, fields)
        this.state.pending.set(id, {
          name,
          description: agentCall ? description : null,
          ...(agentCall && typeof fields.prompt === 'string' ? { prompt: promptDigest(fields.prompt) } : {}),
          ...(file ? { file } : {})
        })
        noteRead(this.state, name, fields)
        if (name === 'Bash' && typeof fields.command === 'string') {
          this.records.push({ kind: 'shell-command', offset: this.offset, toolCallId: id, command: fields.command })
        }
        return
      }
      default:
        // Server tools answer inside the assistant message (`web_search_tool_result`, …).
        if (block.type.endsWith('_tool_result')) return this.toolResult(block, undefined)
        this.unread(`assistant block "${block.type}"`)
    }
  }

  system(): void {
    const parsed = SystemLineSchema.safeParse(this.json)
    if (!parsed.success) return this.skip(`system line: ${describeIssue(parsed.error)}`)
    const line = parsed.data
    const subtype = line.subtype ?? ''
    if (subtype === 'compact_boundary') {
      this.state.boundary = {
        trigger: line.compactMetadata?.trigger ?? null,
        preTokens: line.compactMetadata?.preTokens ?? null
      }
      return
    }
    if (IGNORED_SYSTEM_SUBTYPES.has(subtype)) return
    const text = systemText(subtype, line)
    if (text === null) return this.unread(`system line of subtype "${subtype}" without text`)
    if (text === '') return
    this.meta()
    this.message({ role: 'system', content: text, ...(line.level === 'error' || subtype === 'api_error' ? { isError: true } : {}) })
  }

  /**
   * A running sub-agent's progress (2.1.x `agent_progress`) names it and the Task/Agent call that
   * started it: the link is known before the call's result (which names it again) is written.
   */
  agentProgress(): void {
    const fields = this.json as { data?: { type?: unknown; agentId?: unknown }; parentToolUseID?: unknown }
    const agentId = fields.data?.type === 'agent_progress' ? fields.data.agentId : undefined
    const toolCallId = fields.parentToolUseID
    if (typeof agentId === 'string' && agentId !== '' && typeof toolCallId === 'string' && toolCallId !== '') {
      this.records.push({ kind: 'sub-agent-link', offset: this.offset, toolCallId, agentId })
    }
  }

  prLink(): void {
    const fields = this.json as Record<string, unknown>
    const url = typeof fields.prUrl === 'string' ? fields.prUrl : null
    if (!url) return this.skip('pr-link line without prUrl')
    const number = typeof fields.prNumber === 'number' ? ` #${fields.prNumber}` : ''
    this.records.push({ kind: 'note', offset: this.offset, text: `Pull request${number}: ${url}` })
  }
}
