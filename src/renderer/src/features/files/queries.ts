import { useQueries, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { StructuredPatchHunk } from 'diff'
import type { MethodOutput } from '../../../../shared/contract'
import { call } from '../../api/client'
import type { ChangeGroup } from './changes'
import { countLines, diffTexts, hunksOfPatch, sideBySideHunks } from './diff-rows'
import { filesKeys } from '../../state/query-keys'

type ServerDiff = MethodOutput<'files.diff'>
type Version = MethodOutput<'files.version'>
type VersionRef = { hash: string; size: number } | null

/** A file diff ready to show, whichever way it was computed. */
export interface DiffData {
  binary: boolean
  tooLarge: boolean
  /** Past the line diff's bounds: `hunks` is the two versions side by side, the counts unknown. */
  tooManyChanges: boolean
  before: VersionRef
  after: VersionRef
  added: number
  removed: number
  hunks: StructuredPatchHunk[]
  /** For a symbolic link: what it pointed to before → after. */
  link: string | null
}

export type DiffState =
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retry: () => void }
  | { status: 'success'; data: DiffData }

/** The files a turn changed. `enabled` lets a header wait until it has been on screen a moment. */
export function useTurnChanges(sessionId: string, turn: number, enabled: boolean) {
  return useQuery({
    queryKey: filesKeys.turn(sessionId, turn),
    queryFn: () => call('changes.ofTurn', { sessionId, turn }),
    enabled
  })
}

const diffOfTurn = (sessionId: string, pathId: string, turn: number) => ({
  queryKey: filesKeys.diff(sessionId, pathId, turn, turn + 1),
  queryFn: () => call('files.diff', { sessionId, pathId, fromTurn: turn, toTurn: turn + 1 })
})

/** A diff from the server (files.diff, rewind.fileDiff) as the diff view takes it. */
export function fromServer(diff: ServerDiff): DiffData {
  const link = !diff.binary && diff.patch.startsWith('link: ') ? diff.patch.slice('link: '.length) : null
  return { ...diff, link, hunks: link === null ? hunksOfPatch(diff.patch) : [] }
}

/** A file's net line counts across a turn; `tooManyChanges` past the line diff's bounds. */
export interface NetCounts {
  added: number | null
  removed: number | null
  tooManyChanges: boolean
}

/**
 * Net line counts of the files a turn changed more than once (the per-entry counts would add
 * up edits of edits): their diffs across the whole turn, which the diff view reuses.
 */
export function useNetCounts(sessionId: string, turn: number, groups: readonly ChangeGroup[]): Map<string, NetCounts> {
  const needed = groups.filter((group) => group.entries.length > 1 && !group.renamed)
  const results = useQueries({ queries: needed.map((group) => diffOfTurn(sessionId, group.pathId, turn)) })
  const counts = new Map<string, NetCounts>()
  needed.forEach((group, index) => {
    const data = results[index]?.data
    if (!data) return
    counts.set(group.key, data.binary || data.tooLarge || data.tooManyChanges ? { added: null, removed: null, tooManyChanges: data.tooManyChanges } : { added: data.added, removed: data.removed, tooManyChanges: false })
  })
  return counts
}

/** One file's change across a turn (checkpoint N → N + 1), from the server, or from its two versions across a rename. */
export function useTurnDiff(sessionId: string, workspaceId: number | null, turn: number, group: ChangeGroup): DiffState {
  return useServerOrVersionsDiff(group.renamed ? null : { sessionId, pathId: group.pathId, turn }, workspaceId, group.before, group.after)
}

/**
 * What one history entry did to a file: the server's diff of its turn when it was the turn's
 * only change to this path (not a rename), else its two versions diffed here.
 */
export function useEntryDiff(
  workspaceId: number,
  pathId: string,
  entry: { sessionId: string | null; turn: number | null; op: string; before: VersionRef; after: VersionRef },
  onlyChangeInTurn: boolean
): DiffState {
  const server = onlyChangeInTurn && entry.sessionId !== null && entry.turn !== null && entry.op !== 'rename' ? { sessionId: entry.sessionId, pathId, turn: entry.turn } : null
  return useServerOrVersionsDiff(server, workspaceId, entry.before, entry.after)
}

function useServerOrVersionsDiff(server: { sessionId: string; pathId: string; turn: number } | null, workspaceId: number | null, before: VersionRef, after: VersionRef): DiffState {
  const query = useQuery({ ...diffOfTurn(server?.sessionId ?? '', server?.pathId ?? '', server?.turn ?? 1), select: fromServer, enabled: server !== null })
  const versions = useVersionsDiff(server ? null : workspaceId, before, after)
  if (!server) return versions
  if (query.isError) return { status: 'error', error: query.error, retry: () => void query.refetch() }
  return query.data ? { status: 'success', data: query.data } : { status: 'pending' }
}

/** One recorded version's content (text, or a binary/too-large notice). */
export function useFileVersion(workspaceId: number | null, hash: string | null) {
  return useQuery({
    queryKey: filesKeys.version(workspaceId ?? 0, hash ?? ''),
    queryFn: () => call('files.version', { workspaceId: workspaceId ?? 0, hash: hash ?? '' }),
    enabled: workspaceId !== null && hash !== null
  })
}

/**
 * The diff between two recorded versions, computed here with jsdiff (for a history entry, or a
 * rename the server's per-path diff cannot show). Size-guarded by the server (versions over
 * its limit arrive truncated) and time-guarded by jsdiff.
 */
export function useVersionsDiff(workspaceId: number | null, before: VersionRef, after: VersionRef): DiffState {
  const oldVersion = useFileVersion(workspaceId, before?.hash ?? null)
  const newVersion = useFileVersion(workspaceId, after?.hash ?? null)
  const oldData = before ? oldVersion.data : EMPTY
  const newData = after ? newVersion.data : EMPTY
  const data = useMemo(() => (oldData && newData ? diffVersions(oldData, newData, before, after) : null), [oldData, newData, before, after])
  if (workspaceId === null) return { status: 'pending' }
  const failed = [before ? oldVersion : null, after ? newVersion : null].find((query) => query?.isError)
  if (failed) return { status: 'error', error: failed.error, retry: () => void failed.refetch() }
  return data ? { status: 'success', data } : { status: 'pending' }
}

/** Diffs computed in the window stop here (the server diffs larger files, up to its own limit). */
const CLIENT_DIFF_CHARS = 1_000_000

const EMPTY: Version = { size: 0, binary: false, truncated: false, text: '', base64: null }

function diffVersions(oldVersion: Version, newVersion: Version, before: VersionRef, after: VersionRef): DiffData {
  const base = { before, after, added: 0, removed: 0, hunks: [], link: null, tooManyChanges: false }
  if (oldVersion.truncated || newVersion.truncated) return { ...base, binary: false, tooLarge: true }
  if (oldVersion.binary || newVersion.binary) return { ...base, binary: true, tooLarge: false }
  const oldText = oldVersion.text ?? ''
  const newText = newVersion.text ?? ''
  if (oldText.length + newText.length > CLIENT_DIFF_CHARS) return { ...base, binary: false, tooLarge: true }
  const hunks = diffTexts(oldText, newText)
  if (!hunks) return { ...base, binary: false, tooLarge: false, tooManyChanges: true, hunks: sideBySideHunks(oldText, newText) }
  return { ...base, binary: false, tooLarge: false, hunks, ...countLines(hunks) }
}

/** Every recorded change to one path across the workspace's sessions, oldest first. */
export function useFileHistory(workspaceId: number | null, pathId: string) {
  return useQuery({
    queryKey: filesKeys.history(workspaceId ?? 0, pathId),
    queryFn: () => call('files.history', { workspaceId: workspaceId ?? 0, pathId }),
    enabled: workspaceId !== null
  })
}

/** Who last wrote each line of one path (see files.blame); refreshed with the workspace's histories. */
export function useFileBlame(workspaceId: number, pathId: string) {
  return useQuery({
    queryKey: [...filesKeys.historiesOf(workspaceId), pathId, 'blame'] as const,
    queryFn: () => call('files.blame', { workspaceId, pathId }),
    retry: false
  })
}
