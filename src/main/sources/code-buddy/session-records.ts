import type { MessageRecord, SourceRecord } from '../records'
import { withFileCalls } from './file-calls'
import { diffPreviewNote, planProgressNote, steerNote, unknownTypeNote } from './notes'
import type { CodeBuddySession, SessionEntry } from './session-file'

/** What Code Buddy writes as a `tool_call`'s content while the tool runs: a placeholder, not the call's input. */
const EXECUTING = 'Executing...'

export interface SessionRecords {
  records: SourceRecord[]
  /** The uid of each message, by position: a session branched from this one reuses those of its copied prefix. */
  uids: string[]
}

/**
 * A session file's messages as records, one record per message. Code Buddy's messages carry no
 * ids, so each gets `<session>#<index>`; the messages a branched session copied from its parent
 * take the parent's uids (`shared`), so the importer recognises them as the copy and does not
 * store them twice. Tool calls have no ids either: a result answers the nearest earlier
 * unanswered call of the same tool (the seed's own pairing), and a result with none (Code Buddy
 * rewrites a call into its result in place) keeps an id of its own.
 */
export function sessionRecords(session: CodeBuddySession, shared: string[], forkedFrom: { sessionId: string; messageUid: string | null } | null): SessionRecords {
  const records: SourceRecord[] = [
    {
      kind: 'session-meta',
      offset: 0,
      sessionId: session.key,
      // Code Buddy titles a session itself (generateConversationTitle), "<name> (branch)" for a branched one.
      ...(session.name ? { title: session.name, titleOrigin: 'ai' as const } : {}),
      ...(session.workingDirectory ? { cwd: session.workingDirectory } : {}),
      ...(session.model ? { model: session.model } : {}),
      createdAt: session.createdAt,
      ...(forkedFrom ? { forkedFrom } : {})
    }
  ]
  const uids: string[] = []
  const unanswered: { name: string | undefined; id: string }[] = []
  let lastTime = session.createdAt
  session.messages.forEach((entry, position) => {
    const copied = position < shared.length
    const uid = copied ? (shared[position] as string) : `${session.key}#${entry.index}`
    uids.push(uid)
    // A copied message is not written (the branch copies its parent's prefix): its time is the
    // branch's creation, which the importer takes as the session's start.
    const createdAt = copied ? session.createdAt : (entry.createdAt ?? lastTime)
    if (!copied) lastTime = createdAt
    const base = { kind: 'message' as const, offset: entry.index, uid, parentUid: null, agentId: null, createdAt, startsTurn: false }
    records.push({ ...base, ...shape(entry, uid, session.model, unanswered) })
  })
  const own = new Set(uids.slice(shared.length))
  return { records: withFileCalls(records, (record) => record.uid !== null && own.has(record.uid)), uids }
}

type Shape = Pick<MessageRecord, 'role' | 'content' | 'startsTurn'> & Partial<Pick<MessageRecord, 'toolName' | 'toolCallId' | 'isError' | 'model'>>

/** How each `SessionMessage.type` reads in Retrace (see notes.ts for the ones no role names). */
function shape(entry: SessionEntry, uid: string, model: string | undefined, unanswered: { name: string | undefined; id: string }[]): Shape {
  const byModel = model ? { model } : {}
  switch (entry.type) {
    case 'user':
      return { role: 'user', content: entry.content, startsTurn: true }
    case 'assistant':
      return { role: 'assistant', content: entry.content, startsTurn: false, ...byModel }
    case 'reasoning':
      return { role: 'reasoning', content: entry.content, startsTurn: false, ...byModel }
    case 'tool_call':
      unanswered.push({ name: entry.toolCallName, id: uid })
      return { role: 'tool_call', content: entry.content === EXECUTING ? '' : entry.content, startsTurn: false, toolName: entry.toolCallName ?? 'unknown tool', toolCallId: uid, ...byModel }
    case 'tool_result': {
      const at = findLastIndex(unanswered, (call) => entry.toolCallName === undefined || call.name === entry.toolCallName)
      const call = at >= 0 ? unanswered.splice(at, 1)[0] : undefined
      return {
        role: 'tool_result',
        content: entry.content,
        startsTurn: false,
        toolCallId: call?.id ?? uid,
        ...(entry.toolCallName ? { toolName: entry.toolCallName } : {}),
        ...(entry.toolCallSuccess !== undefined ? { isError: !entry.toolCallSuccess } : {})
      }
    }
    case 'plan_progress':
      return { role: 'system', content: planProgressNote(entry.content, entry.taskState), startsTurn: false }
    case 'steer':
      return { role: 'system', content: steerNote(entry.content), startsTurn: false }
    case 'diff_preview':
      return { role: 'system', content: diffPreviewNote(entry.content, entry.toolCallName), startsTurn: false }
    default:
      return { role: 'system', content: unknownTypeNote(entry.type, entry.content), startsTurn: false }
  }
}

function findLastIndex<T>(items: T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (test(items[index] as T)) return index
  return -1
}
