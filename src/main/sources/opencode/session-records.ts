import type { Usage } from '../../../shared/contract'
import type { Attachment, SessionMetaRecord, SourceRecord } from '../records'
import { isRecord } from '../plain-data'
import { text, type OpenCodeMessage, type OpenCodeSession } from './model'
import { patchOnlyEditBases, stepPatches, type SnapshotLookup } from './patch-files'
import { toolRecords, type Draft } from './tool-records'

/** What a session's records need from the rest of the store. */
export interface SessionLinks {
  /** The `task` tool call (call id) of the parent session that started this child session, if found. */
  startedBy: string | null
  /** The parent session is imported too (else the child stands alone, and says so). */
  parentKnown: boolean
  /** Files in OpenCode's snapshot trees (for the changes of `patch` parts no tool reported); absent: not read. */
  snapshots?: SnapshotLookup
}

/**
 * One OpenCode session as records, message by message in id order: a user message opens a turn
 * (its text parts, its files as attachments); an assistant message is its parts in order —
 * reasoning, text, tool calls with their results and file changes — its model, tokens and cost
 * (summed over its steps) on its first line, and its error, if any, as a system line. A summary message
 * (`summary: true`, written by `/compact`) is the compaction. A pending `/undo` (`revert`) is
 * shown where it applies: the prompts it took back are flagged as undone.
 */
export function sessionRecords(session: OpenCodeSession, links: SessionLinks): SourceRecord[] {
  const drafts: Draft[] = [metaOf(session, links)]
  if (session.parentId && !links.parentKnown) drafts.push({ kind: 'note', text: `OpenCode: started by session ${session.parentId}, which is not in this store (deleted?)` })
  const revertAt = session.revert?.messageId ?? null
  let revertShown = false
  const shells = userShellCommands(session.messages)
  for (const message of session.messages) {
    if (revertAt !== null && !revertShown && message.id >= revertAt) {
      revertShown = true
      drafts.push({ kind: 'message', uid: `${session.id}#revert`, parentUid: null, agentId: null, startsTurn: false, role: 'system', content: 'OpenCode: /undo took the session back to before this point. The messages below are hidden in OpenCode (and its files restored) until /redo, or removed by the next prompt.' })
    }
    const role = message.info.role
    if (role === 'user') drafts.push(...userRecords(message, revertAt !== null && message.id >= revertAt, shells.get(message.id)))
    else if (role === 'assistant') drafts.push(...assistantRecords(message, links.snapshots, shells.has(text(message.info.parentID) ?? '')))
    else drafts.push({ kind: 'skipped', reason: `${session.label}: message ${message.id} has role ${JSON.stringify(role)}; skipped` })
  }
  return drafts.map((draft, offset): SourceRecord => ({ ...draft, offset }))
}

function metaOf(session: OpenCodeSession, links: SessionLinks): Draft {
  const meta: Omit<SessionMetaRecord, 'offset'> = { kind: 'session-meta', sessionId: session.id }
  // OpenCode names a session "New session - <time>" (a child "Child session - …") until its title is generated.
  if (session.title && !/^(New|Child) session - \d{4}-/.test(session.title)) Object.assign(meta, { title: session.title, titleOrigin: 'ai' })
  if (session.directory) meta.cwd = session.directory
  if (session.createdAt !== undefined) meta.createdAt = session.createdAt
  const model = [...session.messages].reverse().map(modelOf).find((found) => found !== null)
  if (model) meta.model = model
  if (session.parentId && links.parentKnown) meta.parent = { sessionId: session.parentId, kind: 'sub-agent', ...(links.startedBy ? { toolCallId: links.startedBy } : {}) }
  return meta
}

/**
 * The user's own shell commands (`!ls` in the prompt): OpenCode's `SessionPrompt.shell` writes a
 * user message holding only a synthetic text part ("The following tool was executed by the
 * user"), then an assistant message, with no model call behind it, holding the `bash` tool part.
 * User message id → the command.
 */
function userShellCommands(messages: OpenCodeMessage[]): Map<string, string> {
  const commands = new Map<string, string>()
  for (const [index, message] of messages.entries()) {
    if (message.info.role !== 'user' || message.parts.length === 0) continue
    if (!message.parts.every(({ data }) => data.type === 'text' && data.synthetic === true)) continue
    const answer = messages[index + 1]
    if (answer?.info.role !== 'assistant' || (text(answer.info.parentID) ?? message.id) !== message.id) continue
    const tools = answer.parts.filter(({ data }) => data.type === 'tool')
    const state = tools[0]?.data.state
    if (tools.length !== 1 || tools[0]?.data.tool !== 'bash' || !isRecord(state) || !isRecord(state.input)) continue
    const command = text(state.input.command)
    if (command) commands.set(message.id, command)
  }
  return commands
}

function userRecords(message: OpenCodeMessage, undone: boolean, shellCommand: string | undefined): Draft[] {
  const texts: string[] = []
  const attachments: Attachment[] = []
  let compaction = false
  for (const { data } of message.parts) {
    if (data.type === 'text' && typeof data.text === 'string' && data.synthetic !== true && data.ignored !== true) texts.push(data.text)
    else if (data.type === 'file') attachments.push(attachmentOf(data))
    else if (data.type === 'subtask') texts.push(`(subtask for @${text(data.agent) ?? 'agent'}: ${text(data.description) ?? text(data.prompt) ?? ''})`)
    else if (data.type === 'compaction') compaction = true
  }
  // The prompt of `/compact` holds only a compaction part: the summary message after it is the record.
  if (compaction && texts.length === 0) return []
  return [
    {
      kind: 'message',
      uid: message.id,
      parentUid: null,
      agentId: null,
      startsTurn: true,
      role: 'user',
      content: shellCommand !== undefined ? `!${shellCommand}` : texts.join('\n\n'),
      ...createdAt(message.info),
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(undone ? { turnInvalidated: true } : {})
    }
  ]
}

function assistantRecords(message: OpenCodeMessage, snapshots: SnapshotLookup | undefined, userShell: boolean): Draft[] {
  const info = message.info
  // The answer to a user's `!command` is the command's run alone: no model was called.
  const model = userShell ? null : modelOf(message)
  const usage = userShell ? null : messageUsage(message)
  const base = { kind: 'message' as const, parentUid: null, agentId: null, startsTurn: false, ...createdAt(info) }
  if (info.summary === true) {
    const summary = message.parts.flatMap(({ data }) => (data.type === 'text' && typeof data.text === 'string' ? [data.text] : [])).join('\n\n')
    // A compaction has no usage of its own in Retrace: what the summary cost goes with the session's totals.
    return [{ kind: 'compaction', uid: message.id, summary, ...createdAt(info) }, ...(usage ? [{ kind: 'usage' as const, usage }] : [])]
  }
  const drafts: Draft[] = []
  for (const { id, data } of message.parts) {
    const time = isRecord(data.time) && typeof data.time.start === 'number' ? { createdAt: data.time.start } : {}
    if ((data.type === 'text' || data.type === 'reasoning') && typeof data.text === 'string' && data.text.trim() !== '') {
      drafts.push({ ...base, ...time, uid: id, role: data.type === 'text' ? 'assistant' : 'reasoning', content: data.text })
    } else if (data.type === 'tool') {
      drafts.push(...toolRecords(data, id, { ...base, uid: id }))
    } else if (data.type === 'retry' && isRecord(data.error)) {
      drafts.push({ ...base, uid: id, role: 'system', content: `OpenCode retried the model call (attempt ${String(data.attempt)}): ${errorText(data.error)}` })
    }
  }
  if (snapshots) {
    // A patch-only edit, first of its file in its step, patches the file as the step's snapshot holds it.
    const bases = patchOnlyEditBases(message.parts)
    for (const draft of drafts) {
      const base = draft.kind === 'file-edit' && draft.before === undefined && draft.toolCallId ? bases.get(draft.toolCallId) : undefined
      const before = base ? snapshots(base.tree, base.file) : undefined
      if (draft.kind === 'file-edit' && before !== undefined) draft.before = before
    }
    drafts.push(...snapshotEdits(message, drafts, snapshots))
  }
  if (isRecord(info.error)) drafts.push({ ...base, uid: `${message.id}#error`, role: 'system', content: `OpenCode: ${errorText(info.error)}` })
  // The message's model, tokens and cost go on its first record (one with nothing to show is made for them).
  let first = drafts.find((draft) => draft.kind === 'message')
  if (!first && (model || usage)) drafts.unshift((first = { ...base, uid: message.id, role: 'assistant', content: '' }))
  if (first?.kind === 'message') Object.assign(first, { ...(model ? { model } : {}), ...(usage ? { usage } : {}) })
  return drafts
}

/**
 * The files a step changed that no tool reported (a shell command's), from the snapshots before
 * and after it: the step's `patch` part names them. Files a tool's result already gave are left.
 */
function snapshotEdits(message: OpenCodeMessage, drafts: Draft[], snapshots: SnapshotLookup): Draft[] {
  const reported = new Set(drafts.flatMap((draft) => (draft.kind === 'file-edit' ? [draft.path] : [])))
  const edits: Draft[] = []
  for (const patch of stepPatches(message.parts)) {
    for (const file of patch.files) {
      if (reported.has(file)) continue
      const before = snapshots(patch.before, file)
      const after = snapshots(patch.after, file)
      if (before === undefined || after === undefined || before === after) continue
      reported.add(file)
      edits.push({ kind: 'file-edit', toolCallId: null, path: file, before, after })
    }
  }
  return edits
}

/**
 * What the message cost: the sum of its steps (`step-finish`: the tokens and cost of one model
 * call), or the message's own totals in older versions without steps. Reasoning tokens are billed
 * as output.
 */
function messageUsage(message: OpenCodeMessage): Usage | null {
  const steps = message.parts.filter(({ data }) => data.type === 'step-finish').map(({ data }) => usageOf(data.tokens, data.cost))
  const all = steps.length > 0 ? steps : [usageOf(message.info.tokens, message.info.cost)]
  const known = all.filter((usage): usage is Usage => usage !== null)
  if (known.length === 0) return null
  return known.reduce((sum, usage) => ({
    inputTokens: sum.inputTokens + usage.inputTokens,
    outputTokens: sum.outputTokens + usage.outputTokens,
    cacheReadTokens: sum.cacheReadTokens + usage.cacheReadTokens,
    cacheWriteTokens: sum.cacheWriteTokens + usage.cacheWriteTokens,
    costUsd: sum.costUsd === null && usage.costUsd === null ? null : (sum.costUsd ?? 0) + (usage.costUsd ?? 0)
  }))
}

function usageOf(tokens: unknown, cost: unknown): Usage | null {
  if (!isRecord(tokens)) return null
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0)
  const cache = isRecord(tokens.cache) ? tokens.cache : {}
  return {
    inputTokens: count(tokens.input),
    outputTokens: count(tokens.output) + count(tokens.reasoning),
    cacheReadTokens: count(cache.read),
    cacheWriteTokens: count(cache.write),
    costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null
  }
}

function modelOf(message: OpenCodeMessage): string | null {
  const info = message.info
  if (typeof info.modelID === 'string') return info.modelID
  return isRecord(info.model) && typeof info.model.modelID === 'string' ? info.model.modelID : null
}

function attachmentOf(part: Record<string, unknown>): Attachment {
  const url = typeof part.url === 'string' ? part.url : ''
  const inline = /^data:[^;,]*;base64,(.*)$/s.exec(url)
  return { mediaType: typeof part.mime === 'string' ? part.mime : 'application/octet-stream', data: inline?.[1] ?? null, ...(typeof part.filename === 'string' ? { name: part.filename } : {}) }
}

/** `NamedError` JSON: `{ name, data: { message } }`. */
function errorText(error: Record<string, unknown>): string {
  const data = isRecord(error.data) ? error.data : {}
  const name = typeof error.name === 'string' ? error.name : 'error'
  if (name === 'MessageAbortedError') return 'the answer was interrupted'
  return typeof data.message === 'string' ? `${name}: ${data.message}` : name
}

function createdAt(info: Record<string, unknown>): { createdAt?: number } {
  return isRecord(info.time) && typeof info.time.created === 'number' ? { createdAt: info.time.created } : {}
}

