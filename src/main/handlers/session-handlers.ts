import type { Handlers } from '../rpc/dispatcher'
import { decodeSeqCursor } from '../store/repositories/messages'
import { toSessionSummary } from '../store/repositories/sessions'
import { sessionDetail } from '../transcripts/session-detail'
import type { HandlerContext } from './context'
import { viewTakesSubfolders } from './workspace-view'
import { RetraceError } from '../../shared/contract'

type SessionHandlers = Pick<Handlers, 'sessions.list' | 'sessions.get' | 'transcript.page' | 'transcript.find' | 'search.messages'>

/** Matches `transcript.find` returns at most. */
export const MAX_FIND_HITS = 1000

export function sessionHandlers(ctx: HandlerContext): SessionHandlers {
  const { store } = ctx
  return {
    'sessions.list': (input) => {
      const workspace = store.workspaces.get(input.workspaceId)
      if (!workspace) {
        throw new RetraceError('NOT_FOUND', `No workspace with id ${input.workspaceId}. Open the folder again from the first screen.`)
      }
      const withSubfolders = viewTakesSubfolders(ctx, workspace)
      const page = store.sessions.list({ ...input, withSubfolders })
      const hiddenWarmups = input.includeWarmups ? 0 : store.sessionLinks.countWarmups(input.workspaceId, input.source, withSubfolders)
      return { items: page.items.map(toSessionSummary), nextCursor: page.nextCursor, hiddenWarmups }
    },

    'sessions.get': ({ sessionId }) => sessionDetail(store, sessionId),

    'transcript.page': ({ sessionId, transcript, direction, cursor, limit }) => {
      const record = store.sessions.require(sessionId)
      const view = { sessionRowId: record.rowId, sessionUid: record.id, transcript, contextStartSeq: record.contextStartSeq }
      const bound = cursor ? decodeSeqCursor(cursor) : null
      const page = store.messages.page(view, direction, bound, limit)
      const total = transcript === 'display' ? record.messageCount : store.messages.countContext(record.rowId, record.contextStartSeq)
      return { ...page, total }
    },

    'transcript.find': ({ sessionId, query, transcript }) => {
      const record = store.sessions.require(sessionId)
      const view = { sessionRowId: record.rowId, sessionUid: record.id, transcript, contextStartSeq: record.contextStartSeq }
      return store.messages.findInSession(view, query, MAX_FIND_HITS)
    },

    'search.messages': ({ query, workspaceId, cursor, limit }) => {
      const offset = cursor ? decodeSeqCursor(cursor) : 0
      const workspace = workspaceId === undefined ? undefined : store.workspaces.get(workspaceId)
      const withSubfolders = workspace === undefined || viewTakesSubfolders(ctx, workspace)
      const hits = store.searchIndex.search(query, { workspaceId, withSubfolders, limit: limit + 1, offset })
      if (hits === null) throw new RetraceError('VALIDATION', 'Type at least one letter or digit to search for.')
      return {
        items: hits.slice(0, limit),
        nextCursor: hits.length > limit ? String(offset + limit) : null
      }
    }
  }
}
