import { createHash } from 'node:crypto'
import type { SourceRecord } from '../records'
import type { GraphCheckpoint, GraphThread } from './checkpoint-db'
import { langGraphFileTools, shellCommand, writtenPath } from './file-tools'
import type { ChatMessage } from './messages'

/** One session made from a LangGraph thread: its main line, or a branch time travel started. */
export interface ThreadSession {
  /** The thread id, or `<thread id>@<checkpoint id>` for a branch. */
  key: string
  /** Changes whenever anything this session shows changes (a new checkpoint on its line). */
  fingerprint: string
  /** For a branch: the session (key) it was forked from, and the last message they share. */
  forkedFrom: { sessionId: string; messageUid: string | null } | null
  startedAt: number | undefined
  records: SourceRecord[]
}

/**
 * A thread's checkpoints as sessions. Each checkpoint holds the whole conversation so far, so a
 * session's transcript is the messages of the newest checkpoint on its line; each human message
 * opens a turn. Checkpoints sharing a parent are time travel: the line ending in the newest
 * checkpoint is the thread's session, and every other line a branch forked where it left it.
 */
export function threadSessions(thread: GraphThread, origin: ThreadSession['forkedFrom'] = null): ThreadSession[] {
  const { checkpoints } = thread
  if (checkpoints.length === 0 || withoutMessages(thread)) return []
  const byId = new Map(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint]))
  const hasChild = new Set(checkpoints.map((checkpoint) => checkpoint.parentId).filter((id): id is string => id !== null))
  // Checkpoint ids sort by time: the newest leaf is the thread's present.
  const leaves = checkpoints.filter((checkpoint) => !hasChild.has(checkpoint.id)).sort((a, b) => (a.id < b.id ? 1 : -1))
  const lineOf = (leaf: GraphCheckpoint): GraphCheckpoint[] => {
    const line: GraphCheckpoint[] = []
    const seen = new Set<string>()
    for (let at: GraphCheckpoint | undefined = leaf; at && !seen.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) {
      seen.add(at.id)
      line.unshift(at)
    }
    return line
  }
  const [main, ...others] = leaves
  if (!main) return []
  const mainLine = lineOf(main)
  const mainIds = new Set(mainLine.map((checkpoint) => checkpoint.id))
  const sessions = [sessionOf(thread.threadId, mainLine, origin)]
  for (const leaf of others) {
    const line = lineOf(leaf)
    const shared = line.filter((checkpoint) => mainIds.has(checkpoint.id)).at(-1)
    const sharedMessages = shared ? messagesOf(shared) : []
    const lastShared = sharedMessages.at(-1)
    const forkedFrom = { sessionId: thread.threadId, messageUid: lastShared ? lastRecordUid(lastShared) : null }
    sessions.push(sessionOf(`${thread.threadId}@${leaf.id}`, line, forkedFrom))
  }
  return sessions
}

/**
 * Threads started from another thread's state (LangGraph Platform's `threads.copy`, an app
 * copying a state into a new thread): their conversation begins with the other thread's
 * messages, the same ids. Each such thread → where it forks from the one it shares the most
 * leading messages with, among those started before it (or, started together, holding fewer
 * messages): the last message they share. The session then hangs below that thread as a branch
 * at its fork turn, instead of repeating those turns as its own.
 */
export function threadOrigins(threads: GraphThread[]): Map<string, { sessionId: string; messageUid: string }> {
  const lines = threads.flatMap((thread) => {
    const main = mainLineOf(thread)
    const latest = main ? [...main].reverse().find((checkpoint) => checkpoint.messages !== null) : undefined
    const messages = latest?.messages ?? []
    const ids = messages.map((message) => message.id)
    return main && ids.length > 0 ? [{ thread, start: main[0]?.id ?? '', ids, messages, own: new Set(ids.filter((id): id is string => id !== null)) }] : []
  })
  const before = (a: (typeof lines)[number], b: (typeof lines)[number]) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.ids.length - b.ids.length)
  const ordered = [...lines].sort(before)
  const origins = new Map<string, { sessionId: string; messageUid: string }>()
  ordered.forEach((line, index) => {
    let best: { sessionId: string; messageUid: string; shared: number } | null = null
    for (const other of ordered.slice(0, index)) {
      let shared = 0
      while (shared < line.ids.length && line.ids[shared] !== null && other.own.has(line.ids[shared] as string)) shared += 1
      const last = line.messages[shared - 1]
      const uid = last ? lastRecordUid(last) : null
      if (shared > 0 && uid && (!best || shared > best.shared)) best = { sessionId: other.thread.threadId, messageUid: uid, shared }
    }
    if (best) origins.set(line.thread.threadId, { sessionId: best.sessionId, messageUid: best.messageUid })
  })
  return origins
}

/** The line of a thread's newest leaf: its session's checkpoints, oldest first. */
function mainLineOf(thread: GraphThread): GraphCheckpoint[] | null {
  const byId = new Map(thread.checkpoints.map((checkpoint) => [checkpoint.id, checkpoint]))
  const hasChild = new Set(thread.checkpoints.map((checkpoint) => checkpoint.parentId).filter((id): id is string => id !== null))
  const leaf = thread.checkpoints.filter((checkpoint) => !hasChild.has(checkpoint.id)).sort((a, b) => (a.id < b.id ? 1 : -1))[0]
  if (!leaf) return null
  const line: GraphCheckpoint[] = []
  const seen = new Set<string>()
  for (let at: GraphCheckpoint | undefined = leaf; at && !seen.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) {
    seen.add(at.id)
    line.unshift(at)
  }
  return line
}

/**
 * The state's channels when no checkpoint of the thread has a `messages` channel (a graph keeping
 * its conversation under another name, or plain fields): there is no transcript to show. Null when
 * the thread has messages, or none of its checkpoints could be read (reported as such already).
 */
export function withoutMessages(thread: GraphThread): string[] | null {
  const read = thread.checkpoints.filter((checkpoint) => checkpoint.problem === null)
  if (read.length === 0 || read.some((checkpoint) => checkpoint.hasMessages)) return null
  return [...new Set(read.flatMap((checkpoint) => checkpoint.channels))].sort()
}

function sessionOf(key: string, line: GraphCheckpoint[], forkedFrom: ThreadSession['forkedFrom']): ThreadSession {
  const latest = [...line].reverse().find((checkpoint) => checkpoint.messages !== null)
  const startedAt = timeOf(line[0])
  const records: SourceRecord[] = []
  let offset = 0
  const at = () => offset++
  records.push({
    kind: 'session-meta',
    offset: at(),
    sessionId: key,
    ...(startedAt !== undefined ? { createdAt: startedAt } : {}),
    ...(forkedFrom ? { forkedFrom } : {})
  })
  // A checkpoint that cannot be read is the database's problem, reported once by readCheckpointDb;
  // not again here, for each session whose line holds it.
  const firstSeen = firstAppearance(line)
  const messages = latest ? messagesOf(latest) : []
  const failures = stepFailures(line, messages)
  for (const failure of failures.get(-1) ?? []) records.push(failure(at))
  const lastTime = [...line].reverse().map(timeOf).find((time) => time !== undefined)
  messages.forEach((message, index) => {
    records.push(...messageRecords(message, at, firstSeen.get(messageKey(message, index)) ?? lastTime))
    for (const failure of failures.get(index) ?? []) records.push(failure(at))
  })
  const fingerprint = createHash('sha256')
    .update(line.map((checkpoint) => checkpoint.id).join(','))
    .digest('hex')
  return { key, fingerprint, forkedFrom, startedAt, records }
}

/**
 * The steps of the line that raised (`__error__` writes on the checkpoint they ran from), by the
 * index of the last message that checkpoint held (-1: none): shown right after it, in the turn
 * that failed, at the checkpoint's time.
 */
function stepFailures(line: GraphCheckpoint[], messages: ChatMessage[]): Map<number, ((at: () => number) => SourceRecord)[]> {
  const failures = new Map<number, ((at: () => number) => SourceRecord)[]>()
  for (const checkpoint of line) {
    if (checkpoint.errors.length === 0) continue
    const held = checkpoint.messages ?? []
    const last = held.at(-1)
    const byId = last?.id ? messages.findIndex((message) => message.id === last.id) : -1
    const index = Math.min(byId >= 0 ? byId : held.length - 1, messages.length - 1)
    const createdAt = timeOf(checkpoint)
    const list = failures.get(index) ?? []
    checkpoint.errors.forEach((error, n) => {
      list.push((at) => ({ kind: 'message', offset: at(), uid: `${checkpoint.id}#error${n}`, parentUid: null, agentId: null, startsTurn: false, role: 'system', content: `LangGraph: a step failed: ${error}`, ...(createdAt !== undefined ? { createdAt } : {}) }))
    })
    failures.set(index, list)
  }
  return failures
}

/**
 * When each message first appeared on the line: the time (`ts`) of the checkpoint that first holds
 * it. A message without an id (a plain dict in a state without the add_messages reducer) is known
 * by its place and what it says; one found nowhere takes the line's last time, never the import's.
 */
function firstAppearance(line: GraphCheckpoint[]): Map<string, number> {
  const seen = new Map<string, number>()
  for (const checkpoint of line) {
    const time = timeOf(checkpoint)
    if (time === undefined) continue
    for (const [index, message] of (checkpoint.messages ?? []).entries()) {
      const key = messageKey(message, index)
      if (!seen.has(key)) seen.set(key, time)
    }
  }
  return seen
}

/**
 * What a tool call did to files, as far as a checkpoint tells: a writing tool's call is a change
 * not captured (its arguments are kept, not the file), a shell tool's a shell command.
 */
function fileAccounting(call: ChatMessage['toolCalls'][number], at: () => number): SourceRecord[] {
  const callId = call.id || null
  if (langGraphFileTools.writes.includes(call.name)) {
    return [{ kind: 'change-not-captured', offset: at(), toolCallId: callId, tool: call.name, path: writtenPath(call.args), reason: 'LangGraph keeps the call\'s arguments and the tool\'s answer, not the file before or after it' }]
  }
  const command = langGraphFileTools.shell.includes(call.name) ? shellCommand(call.args) : null
  return command !== null && callId !== null ? [{ kind: 'shell-command', offset: at(), toolCallId: callId, command }] : []
}

/** The uid of a message's `n`th record (see messageRecords). */
function recordUid(message: ChatMessage, n: number): string | null {
  return message.id === null || n === 0 ? message.id : `${message.id}#${n}`
}

/** The uid of a message's last record: where a fork that shares the message leaves it. */
export function lastRecordUid(message: ChatMessage): string | null {
  if (message.role !== 'assistant') return message.id
  const count = (message.reasoning ? 1 : 0) + (message.text || message.toolCalls.length === 0 ? 1 : 0) + message.toolCalls.length
  return recordUid(message, count - 1)
}

function messageKey(message: ChatMessage, index: number): string {
  return message.id ?? `#${index}\n${message.role}\n${message.text}`
}

function messagesOf(checkpoint: GraphCheckpoint): ChatMessage[] {
  return checkpoint.messages ?? []
}

function timeOf(checkpoint: GraphCheckpoint | undefined): number | undefined {
  const time = checkpoint?.ts ? Date.parse(checkpoint.ts) : NaN
  return Number.isFinite(time) ? time : undefined
}

/** A LangChain message as display-transcript records: reasoning, the answer, and each tool call. */
function messageRecords(message: ChatMessage, at: () => number, createdAt: number | undefined): SourceRecord[] {
  const base = { uid: message.id, parentUid: null, agentId: null, ...(createdAt !== undefined ? { createdAt } : {}) }
  switch (message.role) {
    case 'user':
      return [{ kind: 'message', offset: at(), ...base, startsTurn: true, role: 'user', content: message.text }]
    case 'system':
      return [{ kind: 'message', offset: at(), ...base, startsTurn: false, role: 'system', content: message.text }]
    case 'tool':
      return [
        {
          kind: 'message',
          offset: at(),
          ...base,
          startsTurn: false,
          role: 'tool_result',
          content: message.text,
          ...(message.toolCallId ? { toolCallId: message.toolCallId } : {}),
          ...(message.toolName ? { toolName: message.toolName } : {}),
          isError: message.isError
        }
      ]
    case 'assistant': {
      const records: SourceRecord[] = []
      const usage = message.usage ? { ...message.usage } : undefined
      const model = message.model ? { model: message.model } : {}
      // Each record of the response has a uid of its own (the message id, then `<id>#1`, `#2`…):
      // a fork's shared prefix is recognised by them, down to its last tool call.
      let taken = 0
      const take = () => recordUid(message, taken++)
      if (message.reasoning) records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'reasoning', content: message.reasoning, ...model })
      // The response's usage goes on its first visible record: the answer, or its first tool call.
      let unspent = usage
      const spend = () => {
        const spent = unspent
        unspent = undefined
        return spent ? { usage: spent } : {}
      }
      if (message.text || message.toolCalls.length === 0) {
        records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'assistant', content: message.text, ...model, ...spend() })
      }
      for (const call of message.toolCalls) {
        records.push({ kind: 'message', offset: at(), ...base, uid: take(), startsTurn: false, role: 'tool_call', content: '', toolName: call.name, toolCallId: call.id, toolInput: call.args, ...model, ...spend() })
        records.push(...fileAccounting(call, at))
      }
      return records
    }
  }
}
