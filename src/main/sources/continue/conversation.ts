import { RetraceError, type Message } from '../../../shared/contract'
import type { Store } from '../../store/store'
import type { SessionRecord } from '../../store/repositories/sessions'

/** The agents whose own session files Retrace can write for them to resume. */
export const RESUMABLE_AGENTS = ['claude-code', 'codex'] as const
export type ResumableAgent = (typeof RESUMABLE_AGENTS)[number]

export function isResumableAgent(source: string): source is ResumableAgent {
  return (RESUMABLE_AGENTS as readonly string[]).includes(source)
}

/**
 * One item of a conversation an agent can resume: a prompt, a reply, or a tool call with its
 * result (an agent's API refuses a call without its result, so an unanswered call is left out).
 */
export type ConversationItem =
  | { kind: 'user'; text: string; turn: number; createdAt: number | null }
  | { kind: 'assistant'; text: string; turn: number; createdAt: number | null; model: string | null }
  | { kind: 'tool'; name: string; callId: string; input: unknown; output: string; isError: boolean; turn: number; createdAt: number | null; model: string | null }

export interface Conversation {
  session: SessionRecord
  cwd: string
  model: string | null
  items: ConversationItem[]
}

const PAGE = 5_000
const MAX_ANCESTORS = 1_000

/**
 * The conversation of a session up to the end of `throughTurn`, as an agent would resume it:
 * prompts, replies and paired tool calls in order (reasoning, system notes and compaction
 * summaries are Retrace's display, not something to send back). A branch whose transcript does
 * not hold its parent's prefix (an agent's own fork) gets it from the parent.
 */
export function readConversation(store: Store, sessionId: string, throughTurn: number): Conversation {
  const session = store.sessions.require(sessionId)
  if (throughTurn < 1 || throughTurn > session.turnCount) {
    throw new RetraceError('NOT_FOUND', `Session "${session.title}" has no turn ${throughTurn} (it has ${session.turnCount}).`)
  }
  const messages = transcriptWithPrefix(store, session, 0).filter((message) => message.turn <= throughTurn)
  const cwd = session.cwd ?? store.workspaces.get(session.workspaceId)?.path
  if (!cwd) throw new RetraceError('VALIDATION', `Session "${session.title}" records no folder to continue in.`)
  return { session, cwd, model: session.model, items: conversationItems(messages) }
}

function transcriptWithPrefix(store: Store, session: SessionRecord, depth: number): Message[] {
  const own = readTranscript(store, session)
  const firstSeq = own[0]?.seq ?? session.messageCount
  if (depth >= MAX_ANCESTORS || session.parentRowId === null || session.forkSeq === null || firstSeq < session.forkSeq || firstSeq === 0) return own
  const parent = session.parentId ? store.sessions.get(session.parentId) : undefined
  if (!parent) return own
  const prefix = transcriptWithPrefix(store, parent, depth + 1).filter((message) => message.seq < firstSeq)
  return [...prefix, ...own]
}

function readTranscript(store: Store, session: SessionRecord): Message[] {
  const view = { sessionRowId: session.rowId, sessionUid: session.id, transcript: 'display' as const, contextStartSeq: 0 }
  const messages: Message[] = []
  let bound: number | null = null
  for (;;) {
    const page = store.messages.page(view, 'after', bound, PAGE)
    messages.push(...page.items)
    if (page.afterCursor === null) return messages
    bound = Number(page.afterCursor)
  }
}

/** Prompts, replies and tool calls paired with their results, in the order the calls were made. */
export function conversationItems(messages: readonly Message[]): ConversationItem[] {
  const results = new Map<string, Message>()
  for (const message of messages) {
    if (message.role === 'tool_result' && message.toolCallId && !results.has(message.toolCallId)) results.set(message.toolCallId, message)
  }
  const items: ConversationItem[] = []
  for (const message of messages) {
    const base = { turn: message.turn, createdAt: message.createdAt }
    if (message.role === 'user' && message.content.trim() !== '') items.push({ kind: 'user', text: message.content, ...base })
    else if (message.role === 'assistant' && message.content.trim() !== '') items.push({ kind: 'assistant', text: message.content, model: message.model, ...base })
    else if (message.role === 'tool_call' && message.toolCallId && message.toolName) {
      const result = results.get(message.toolCallId)
      if (!result) continue
      items.push({ kind: 'tool', name: message.toolName, callId: message.toolCallId, input: message.toolInput ?? {}, output: result.content, isError: result.isError, model: message.model, ...base })
    }
  }
  return items
}
