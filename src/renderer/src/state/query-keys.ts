import type { TranscriptKind } from '../../../shared/contract'

// The names of the server state TanStack Query caches, shared app-wide: features read and
// refresh their queries by them, and app/invalidation.ts maps server events onto them. They
// live here rather than behind each feature's face so that mapping stays a pure module that
// does not load the features' components.

/** What a session list is filtered by: part of its query key. */
export interface SessionFilters {
  query: string
  source: string | null
  /** Also list warm-ups (see SessionSummary.warmup). */
  warmups: boolean
}

/** Query keys of session lists and details; prefixes let data.changed target one workspace. */
export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  listsOf: (workspaceId: number) => [...sessionKeys.lists(), workspaceId] as const,
  list: (workspaceId: number, filters: SessionFilters) => [...sessionKeys.listsOf(workspaceId), filters] as const,
  details: () => [...sessionKeys.all, 'detail'] as const,
  detail: (sessionId: string) => [...sessionKeys.details(), sessionId] as const
}

export const transcriptKeys = {
  all: ['transcript'] as const,
  session: (sessionId: string) => [...transcriptKeys.all, sessionId] as const,
  pages: (sessionId: string, mode: TranscriptKind) => [...transcriptKeys.session(sessionId), mode] as const
}

/**
 * Query keys of the file journal. Per-session keys sit under the session so a data.changed
 * naming sessions refreshes only theirs; histories sit under their workspace. Versions are
 * content-addressed (a hash never changes meaning), so they are never invalidated.
 */
export const filesKeys = {
  all: ['files'] as const,
  sessions: () => [...filesKeys.all, 'session'] as const,
  session: (sessionId: string) => [...filesKeys.sessions(), sessionId] as const,
  turn: (sessionId: string, turn: number) => [...filesKeys.session(sessionId), 'turn', turn] as const,
  diff: (sessionId: string, pathId: string, fromTurn: number, toTurn: number) =>
    [...filesKeys.session(sessionId), 'diff', pathId, fromTurn, toTurn] as const,
  /** Comparisons across two sessions (a branch and its parent): refreshed when any session's files change. */
  pairs: () => [...filesKeys.all, 'pair'] as const,
  pair: (sessionId: string, fromTurn: number, toSessionId: string, toTurn: number) => [...filesKeys.pairs(), sessionId, fromTurn, toSessionId, toTurn] as const,
  histories: () => [...filesKeys.all, 'history'] as const,
  historiesOf: (workspaceId: number) => [...filesKeys.histories(), workspaceId] as const,
  history: (workspaceId: number, pathId: string) => [...filesKeys.historiesOf(workspaceId), pathId] as const,
  version: (workspaceId: number, hash: string) => [...filesKeys.all, 'version', workspaceId, hash] as const
}

/** Query keys of a session's rewind history; `data.changed {rewinds}` refreshes them. */
export const rewindKeys = {
  all: ['rewinds'] as const,
  lists: () => [...rewindKeys.all, 'list'] as const,
  list: (sessionId: string) => [...rewindKeys.lists(), sessionId] as const,
  recoveries: () => [...rewindKeys.all, 'recoveries'] as const,
  recoveriesOf: (workspaceId: number) => [...rewindKeys.recoveries(), workspaceId] as const
}

/** Query keys of session trees, one per workspace. */
export const treeKeys = {
  all: ['tree'] as const,
  of: (workspaceId: number) => [...treeKeys.all, workspaceId] as const
}

export const searchKeys = {
  all: ['search'] as const,
  results: (query: string, workspaceId: number | null) => [...searchKeys.all, workspaceId ?? 'all', query] as const
}

/** Query keys of workspaces' import status; `import.progress` writes into them, `import.finished` refreshes them. */
export const importKeys = {
  all: ['imports'] as const,
  status: (workspaceId: number) => [...importKeys.all, 'status', workspaceId] as const,
  /** Records the importers did not read in the workspace's histories (refreshed with the status). */
  unread: (workspaceId: number) => [...importKeys.all, 'unread', workspaceId] as const
}

/** Query keys of everything about workspaces; `all` is the prefix invalidations use. */
export const workspaceKeys = {
  all: ['workspaces'] as const,
  recent: () => [...workspaceKeys.all, 'recent'] as const,
  every: () => [...workspaceKeys.all, 'every'] as const,
  detail: (workspaceId: number) => [...workspaceKeys.all, 'detail', workspaceId] as const
}

/** How long the agents keep their history, and the sessions they deleted that Retrace kept. */
export const retentionKeys = {
  status: ['retention'] as const
}

/** A workspace's usage by day, model and source (the Usage view). */
export const usageKeys = {
  all: ['usage'] as const,
  of: (workspaceId: number) => [...usageKeys.all, workspaceId] as const,
  /** Every workspace's, over a range of days ('' for an open end). */
  everywhere: (since: string, until: string) => [...usageKeys.all, 'everywhere', since, until] as const
}
