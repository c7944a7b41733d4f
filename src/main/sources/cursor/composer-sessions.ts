import { createHash } from 'node:crypto'
import type { SnapshotRead, SnapshotSession } from '../adapter'
import { isRecord } from '../plain-data'
import type { SourceRecord } from '../records'
import { bubbleOf, timeOf, type CursorBubble } from './bubbles'
import { cursorFileTools, writeNotCaptured } from './file-tools'
import { parseJson, type CursorStores } from './state-db'

/** A finished call's result that Cursor no longer keeps in its JSON (bubbles.ts `resultPruned`): said, not left blank. */
export const PRUNED_RESULT = '[result pruned by Cursor: it no longer keeps what this call returned in a form Retrace reads]'

/**
 * Every conversation ("composer") of a workspace as a session. A composer's messages are, newest
 * layout first: the global store's bubbles in the order of its `fullConversationHeadersOnly`
 * (a bubble missing there may be in its `conversationMap`), its inline `conversation`, or, before
 * Cursor kept composers in the global store, the inline `conversation` of the workspace's own list.
 * Composers without a message (drafts, empty tabs) are left out.
 */
export function composerSessions(stores: CursorStores): SnapshotRead {
  const problems = [...stores.problems]
  const legacy = new Map(stores.workspaceComposers.flatMap((entry) => (typeof entry.composerId === 'string' ? [[entry.composerId, entry] as const] : [])))
  const ids = [...new Set([...legacy.keys(), ...stores.composers.keys()])]
  const data = new Map<string, Record<string, unknown>>()
  for (const id of stores.composers.keys()) {
    const parsed = parseJson(stores.composers.get(id) ?? null)
    if (isRecord(parsed)) data.set(id, parsed)
    // `null` is Cursor's tombstone for a deleted composer; anything else is damage.
    else if (parsed !== null) problems.push(`composerData:${id} is not a JSON object: that conversation was not read`)
  }
  const parents = parentsOf(data)
  const sessions: SnapshotSession[] = []
  for (const id of ids) {
    const session = composerSession(id, data.get(id) ?? null, legacy.get(id) ?? null, stores.bubbles.get(id) ?? new Map<string, string>(), parents.get(id), stores.contents)
    if (session) sessions.push(session)
  }
  return { sessions, problems }
}

type Parent = { sessionId: string; kind: 'sub-agent' | 'child' }

/** Sub-agents (`subagentComposerIds`) and sub-composers (`subComposerIds`) hang below the composer naming them. */
function parentsOf(data: Map<string, Record<string, unknown>>): Map<string, Parent> {
  const parents = new Map<string, Parent>()
  for (const [id, composer] of data) {
    for (const [field, kind] of [['subagentComposerIds', 'sub-agent'], ['subComposerIds', 'child']] as const) {
      const children = composer[field]
      if (Array.isArray(children)) for (const child of children) if (typeof child === 'string' && child !== id && !parents.has(child)) parents.set(child, { sessionId: id, kind })
    }
  }
  return parents
}

/** One message source entry: the bubble's raw value (or null: missing), and the id its header gives. */
interface Entry {
  id: string
  value: unknown
  headerType?: unknown
}

function entriesOf(data: Record<string, unknown> | null, legacy: Record<string, unknown> | null, bubbles: Map<string, string>): Entry[] {
  const headers = data?.fullConversationHeadersOnly
  if (Array.isArray(headers) && headers.length > 0) {
    const map = isRecord(data?.conversationMap) ? data.conversationMap : {}
    return headers.filter(isRecord).map((header, index) => {
      const id = typeof header.bubbleId === 'string' ? header.bubbleId : `#${index}`
      const raw = bubbles.get(id)
      return { id, value: raw === undefined ? (map[id] ?? null) : parseJson(raw), headerType: header.type }
    })
  }
  const inline: unknown = Array.isArray(data?.conversation) && data.conversation.length > 0 ? data.conversation : legacy?.conversation
  return Array.isArray(inline) ? (inline as unknown[]).map((value, index) => ({ id: isRecord(value) && typeof value.bubbleId === 'string' ? value.bubbleId : `#${index}`, value })) : []
}

function composerSession(id: string, data: Record<string, unknown> | null, legacy: Record<string, unknown> | null, bubbles: Map<string, string>, parent: Parent | undefined, contents: Map<string, string>): SnapshotSession | null {
  const entries = entriesOf(data, legacy, bubbles)
  if (entries.length === 0) return null
  const records: SourceRecord[] = []
  let offset = 0
  const at = () => offset++
  const field = (name: string) => data?.[name] ?? legacy?.[name]
  const startedAt = timeOf(field('createdAt'))
  const title = field('name')
  const modelConfig = field('modelConfig')
  const chosen = isRecord(modelConfig) && typeof modelConfig.modelName === 'string' && modelConfig.modelName !== 'default' ? modelConfig.modelName : undefined
  const read = entries.map((entry) => (entry.value === null ? null : bubbleOf(entry.value, entry.id, entry.headerType)))
  // Auto mode ("default") leaves the choice to each request: the model its bubbles name, the prompt's for the answer.
  let turnModel: string | null = null
  for (const bubble of read) {
    if (bubble?.role === 'user') turnModel = bubble.model
    else if (bubble && !bubble.model && turnModel) bubble.model = turnModel
  }
  const model = chosen ?? read.map((bubble) => bubble?.model ?? null).filter((name): name is string => name !== null).at(-1)
  records.push({
    kind: 'session-meta',
    offset: at(),
    sessionId: id,
    ...(typeof title === 'string' && title.trim() ? { title: title.trim(), titleOrigin: 'ai' as const } : {}),
    ...(startedAt !== undefined ? { createdAt: startedAt } : {}),
    ...(model ? { model } : {}),
    ...(parent ? { parent } : {})
  })
  for (const [index, entry] of entries.entries()) {
    const bubble = read[index]
    if (bubble) records.push(...bubbleRecords(bubble, contents, at))
    else records.push({ kind: 'skipped', offset: at(), reason: entry.value === null ? `bubble ${entry.id} of composer ${id} is missing from the store` : `bubble ${entry.id} of composer ${id} is not a message Retrace reads` })
  }
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([data, legacy, [...bubbles.entries()].sort(), parent ?? null, [...contents.keys()].sort()]))
    .digest('hex')
  return { key: id, fingerprint, forkedFrom: null, startedAt, records }
}

/** A bubble as transcript records: the prompt; or the assistant's thinking, text, and its tool call with the result. */
function bubbleRecords(bubble: CursorBubble, contents: Map<string, string>, at: () => number): SourceRecord[] {
  const base = { parentUid: null, agentId: null, ...(bubble.createdAt !== undefined ? { createdAt: bubble.createdAt } : {}) }
  if (bubble.role === 'user') return [{ kind: 'message', offset: at(), ...base, uid: bubble.id, startsTurn: true, role: 'user', content: bubble.text }]
  const records: SourceRecord[] = []
  const model = bubble.model ? { model: bubble.model } : {}
  // The uid goes on the bubble's first record; its usage on the first record that is the model's output.
  let uid: string | null = bubble.id
  const take = () => {
    const taken = uid
    uid = null
    return taken
  }
  let usage = bubble.usage
  const spend = () => {
    const spent = usage
    usage = null
    return spent ? { usage: spent } : {}
  }
  if (bubble.thinking) records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'reasoning', content: bubble.thinking, ...model })
  // A bubble with nothing in it (Cursor writes many: a call that never started) shows nothing.
  if (bubble.text) records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'assistant', content: bubble.text, ...model, ...spend() })
  const tool = bubble.tool
  if (tool) {
    records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'tool_call', content: '', toolName: tool.name, toolCallId: tool.callId, toolInput: tool.args, ...model, ...spend() })
    // Only an edit whose both contents are kept is one Retrace can rewind (no before: not known).
    const before = tool.edit?.beforeKey ? contents.get(tool.edit.beforeKey) : undefined
    const after = tool.edit ? contents.get(tool.edit.afterKey) : undefined
    if (tool.edit && before !== undefined && after !== undefined) records.push({ kind: 'file-edit', offset: at(), toolCallId: tool.callId, path: tool.edit.path, before, after })
    else if (!tool.isError && cursorFileTools.writes.includes(tool.name)) {
      // A writing call whose contents Cursor did not keep (or that has not finished) is still accounted for.
      const why = tool.resultPruned
        ? 'Cursor pruned the result of this call from its store: whether it changed the file is not known'
        : tool.result === null ? 'Cursor kept no result for this call (still running or cancelled): whether it changed the file is not known' : tool.edit ? 'Cursor no longer keeps the file before this edit' : 'Cursor kept no content before and after this change'
      const unrecorded = writeNotCaptured(tool.name, tool.args, tool.callId, at(), why)
      if (unrecorded) records.push({ ...unrecorded, path: tool.edit?.path ?? unrecorded.path })
    }
    if (tool.result !== null || tool.isError || tool.resultPruned) {
      const content = tool.resultPruned ? PRUNED_RESULT : (tool.result ?? '')
      records.push({ kind: 'message', offset: at(), ...base, uid: null, startsTurn: false, role: 'tool_result', content, toolCallId: tool.callId, toolName: tool.name, isError: tool.isError })
    }
  }
  // A bubble of thinking alone may still have been measured.
  const unspent = spend()
  if (unspent.usage) records.push({ kind: 'usage', offset: at(), usage: unspent.usage })
  return records
}
