import type { SnapshotSession } from '../adapter'
import type { MessageRecord, SourceRecord } from '../records'
import type { BranchFile, ChatMessage } from './branch-file'
import type { BranchTree, InferredMerge } from './branch-tree'
import { mergeNote } from './notes'
import { withFileCalls } from './file-calls'

/** What the folder's branches inherit from the session they belong to (`branches/<session-id>/`). */
export interface BranchFolder {
  /** The folder name: a session id, or `default` (a branch manager started without one). */
  name: string
  /** How the folder's `main` is titled after its session ("Main conversation — <session name>"). */
  owner: string
  cwd: string | undefined
  model: string | undefined
  /** A time for branches that record none (the session's creation). */
  fallbackTime: number | undefined
}

export type BranchSession = Omit<SnapshotSession, 'fingerprint'>

/** The first and last record uid of one chat message (an assistant message may make several records). */
interface MessageUids {
  first: string
  last: string
}

/**
 * The branches of one folder as sessions: each root (the folder's `main`, or a branch whose
 * parent is gone) a session of its own, each fork a branch forked after the last message it
 * shares with its parent, nested forks under their fork. A branch's copied prefix carries its
 * parent's uids, so the importer recognises it instead of storing it twice. Where a merge was
 * inferred, the target gets a marker note before the merged messages, and the merged branch
 * names the target, the marker and the number of messages (`mergedInto`).
 */
export function branchSessions(tree: BranchTree, folder: BranchFolder): BranchSession[] {
  const uidsOf = new Map<string, MessageUids[]>()
  const merged = new Map<string, { firstUid: string; messageCount: number; createdAt: number | undefined }>()
  const keyOf = (branch: BranchFile) => `${folder.name}/${branch.id}`
  const sessions: BranchSession[] = []
  for (const branch of tree.ordered) {
    const link = tree.links.get(branch.id)
    const parentUids = link ? (uidsOf.get(link.parent.id) ?? []) : []
    const shared = link ? Math.min(link.shared, parentUids.length) : 0
    const forkedFrom = link ? { sessionId: keyOf(link.parent), messageUid: shared > 0 ? (parentUids[shared - 1]?.last ?? null) : null } : null
    const mergeInto = tree.merges.find((merge) => merge.target === branch)
    const startedAt = branch.createdAt ?? branch.updatedAt ?? folder.fallbackTime
    const records: SourceRecord[] = [
      {
        kind: 'session-meta',
        offset: 0,
        sessionId: keyOf(branch),
        // Code Buddy's branches are named by the user (fork("zod-schema")); main is named after its session.
        title: branch.id === 'main' && !link ? `${branch.name} — ${folder.owner}` : branch.name,
        titleOrigin: 'custom',
        ...(folder.cwd ? { cwd: folder.cwd } : {}),
        ...(startedAt !== undefined ? { createdAt: startedAt } : {}),
        ...(forkedFrom ? { forkedFrom } : {})
      }
    ]
    const uids: MessageUids[] = []
    /** The uids of the branch's own messages: neither its copied prefix nor a merged branch's messages. */
    const own = new Set<string>()
    const toolNames = new Map<string, string>()
    const model = branch.model ?? folder.model
    branch.messages.forEach((message, index) => {
      if (mergeInto && index === mergeInto.start) {
        const marker = `${keyOf(branch)}#merge:${mergeInto.source.id}`
        const count = branch.messages.slice(index).reduce((sum, later) => sum + recordCount(later), 0)
        merged.set(mergeInto.source.id, { firstUid: marker, messageCount: count + 1, createdAt: branch.updatedAt })
        records.push(note(marker, index, mergeNote(mergeInto.source.name, mergeInto.mode, mergeInto.count), branch.updatedAt))
      }
      const inherited = index < shared ? parentUids[index] : undefined
      const createdAt = timeOf(branch, index, inherited !== undefined, mergeInto) ?? folder.fallbackTime
      const made = messageRecords(message, index, inherited?.first ?? `${keyOf(branch)}#${index}`, createdAt, model, toolNames)
      records.push(...made)
      if (inherited === undefined && !(mergeInto && index >= mergeInto.start)) for (const record of made) if (record.uid) own.add(record.uid)
      uids.push(inherited ?? { first: made[0]?.uid ?? '', last: made.at(-1)?.uid ?? '' })
    })
    uidsOf.set(branch.id, uids)
    sessions.push({ key: keyOf(branch), forkedFrom, startedAt, records: withFileCalls(records, (record) => record.uid !== null && own.has(record.uid)) })
  }
  // A merge is recorded on the merged branch, once its target (a parent, built first) is known.
  for (const session of sessions) {
    const merge = tree.merges.find((candidate) => keyOf(candidate.source) === session.key)
    const marker = merge && merged.get(merge.source.id)
    if (merge && marker) session.mergedInto = { sessionId: keyOf(merge.target), mode: merge.mode, firstUid: marker.firstUid, messageCount: marker.messageCount, ...(marker.createdAt !== undefined ? { createdAt: marker.createdAt } : {}) }
  }
  return sessions
}

/**
 * Branch files keep no message times, only the branch's `createdAt` and `updatedAt`: its own
 * messages are dated at its creation, its last one at its last update, merged ones at the merge
 * (the target's last update). A copied message is not written (the fork copies its parent's).
 */
function timeOf(branch: BranchFile, index: number, copied: boolean, merge: InferredMerge | undefined): number | undefined {
  if (copied) return branch.createdAt
  if ((merge && index >= merge.start) || index === branch.messages.length - 1) return branch.updatedAt ?? branch.createdAt
  return branch.createdAt ?? branch.updatedAt
}

/** How many records a chat message makes (messageRecords below). */
function recordCount(message: ChatMessage): number {
  if (message.role !== 'assistant') return 1
  return (message.content || message.toolCalls.length === 0 ? 1 : 0) + message.toolCalls.length
}

/** One chat message as records: an assistant's text and then each tool call it made; the uid on each (`<uid>+<n>` after the first). */
function messageRecords(message: ChatMessage, index: number, uid: string, createdAt: number | undefined, model: string | undefined, toolNames: Map<string, string>): MessageRecord[] {
  let count = 0
  const next = () => (count++ === 0 ? uid : `${uid}+${count - 1}`)
  const base = () => ({ kind: 'message' as const, offset: index, uid: next(), parentUid: null, agentId: null, startsTurn: false, ...(createdAt !== undefined ? { createdAt } : {}) })
  const byModel = model ? { model } : {}
  switch (message.role) {
    case 'user':
      return [{ ...base(), role: 'user', content: message.content, startsTurn: true }]
    case 'system':
      return [{ ...base(), role: 'system', content: message.content }]
    case 'tool':
      return [
        {
          ...base(),
          role: 'tool_result',
          content: message.content,
          toolCallId: message.toolCallId ?? uid,
          ...(message.toolCallId && toolNames.has(message.toolCallId) ? { toolName: toolNames.get(message.toolCallId) } : {})
        }
      ]
    case 'assistant': {
      const records: MessageRecord[] = []
      if (message.content || message.toolCalls.length === 0) records.push({ ...base(), role: 'assistant', content: message.content, ...byModel })
      for (const call of message.toolCalls) {
        toolNames.set(call.id, call.name)
        records.push({ ...base(), role: 'tool_call', content: '', toolName: call.name, toolCallId: call.id, toolInput: call.input, ...byModel })
      }
      return records
    }
    case 'other':
      return [{ ...base(), role: 'system', content: `A branch message Code Buddy's chat format does not describe:\n${message.content}` }]
  }
}

function note(uid: string, offset: number, content: string, createdAt: number | undefined): MessageRecord {
  return { kind: 'message', offset, uid, parentUid: null, agentId: null, startsTurn: false, role: 'system', content, ...(createdAt !== undefined ? { createdAt } : {}) }
}
