import type { QueryKey } from '@tanstack/react-query'
import type { EventPayload } from '../../../shared/contract'
import { filesKeys, retentionKeys, rewindKeys, searchKeys, sessionKeys, transcriptKeys, treeKeys, usageKeys, workspaceKeys } from '../state/query-keys'

type DataChanged = EventPayload<'data.changed'>

/**
 * Which cached queries read the entities a `data.changed` event names, narrowed to the
 * workspace and sessions it mentions. A query's key is listed here if its *result* contains
 * data derived from the entity (e.g. a workspace summary counts sessions, a session summary
 * counts messages), so nothing on screen stays stale — and transcripts of untouched sessions,
 * the expensive ones, are left alone.
 */
export function keysToInvalidate({ entities, workspaceId, sessionIds }: DataChanged): QueryKey[] {
  const keys: QueryKey[] = []
  const has = (entity: DataChanged['entities'][number]): boolean => entities.includes(entity)
  const sessionLists = workspaceId === undefined ? sessionKeys.lists() : sessionKeys.listsOf(workspaceId)
  const perSession = (key: (id: string) => QueryKey, all: QueryKey): QueryKey[] => (sessionIds?.length ? sessionIds.map(key) : [all])

  if (has('workspaces') || has('sessions') || has('messages')) {
    // Names, session counts and last activity.
    keys.push(workspaceKeys.all)
  }
  if (has('sessions')) {
    keys.push(sessionLists)
    // A new child or successor changes its parent's or predecessor's links, whose ids the
    // event need not name: refresh every detail (only the visible one refetches).
    keys.push(sessionKeys.details())
  }
  if (has('messages')) {
    // Lists match message text and show message counts.
    keys.push(sessionLists, ...perSession(sessionKeys.detail, sessionKeys.details()))
    keys.push(...perSession(transcriptKeys.session, transcriptKeys.all))
  }
  // A detail holds the checkpoints and the last turn that changed a file (which turns can be rewound).
  if (has('checkpoints') || has('files')) keys.push(...perSession(sessionKeys.detail, sessionKeys.details()))
  if (has('files') || has('checkpoints')) {
    // A turn's file list and diffs, per session; a path's history spans the whole workspace.
    // (Recorded versions are content-addressed and never go stale.)
    keys.push(...perSession(filesKeys.session, filesKeys.sessions()))
    // A comparison of two sessions reads both: whichever changed, it is stale.
    keys.push(filesKeys.pairs())
    keys.push(workspaceId === undefined ? filesKeys.histories() : filesKeys.historiesOf(workspaceId))
  }
  // A session's rewind history (statuses change on undo; a fork with files adds one to its parent).
  if (has('rewinds')) keys.push(...perSession(rewindKeys.list, rewindKeys.lists()))
  // What start-up recovery did with interrupted rewinds (a dismissal, or a recovery by another process).
  if (has('rewinds')) keys.push(workspaceId === undefined ? rewindKeys.recoveries() : rewindKeys.recoveriesOf(workspaceId))
  if (has('sessions') || has('messages') || has('checkpoints') || has('files')) {
    // Tree nodes show titles, links, turn and message counts, and files changed; merges.
    keys.push(workspaceId === undefined ? treeKeys.all : treeKeys.of(workspaceId))
  }
  // Tokens and cost by day, model and source are sums over messages (a split moves them between sessions).
  if (has('messages') || has('sessions')) keys.push(workspaceId === undefined ? usageKeys.all : usageKeys.of(workspaceId))
  // Hits show message text, session titles and workspace names.
  if (has('messages') || has('sessions') || has('workspaces')) keys.push(searchKeys.all)
  // Sessions found deleted by their agent (an import marks them) are counted in the retention notice.
  if (has('sessions')) keys.push(retentionKeys.status)

  return dedupe(keys)
}

function dedupe(keys: QueryKey[]): QueryKey[] {
  const seen = new Set<string>()
  return keys.filter((key) => {
    const id = JSON.stringify(key)
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}
