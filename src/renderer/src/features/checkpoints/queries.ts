import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { call, onEvent } from '../../api/client'
import { changedPaths, type RewindPlan } from './plan-model'
import { rewindKeys } from '../../state/query-keys'

/** What a preview is of: rewinding a session's files to before a turn, or undoing a rewind. */
export type PlanTarget =
  | { kind: 'turn'; sessionId: string; turn: number }
  | { kind: 'undo'; sessionId: string; rewindId: string }
  /** One file back to a recorded version (`sessionId`: the session on screen). */
  | { kind: 'version'; sessionId: string; workspaceId: number; pathId: string; path: string; hash: string; label: string }

/**
 * A preview. Deliberately outside `rewindKeys`: a preview is a snapshot the user is reading and
 * choosing against, so a pushed change must not swap it (and its token) under them; if the disk
 * moved, apply answers CONFLICT and the user asks for a new preview. Never cached: opening the
 * dialog again always hashes the disk again.
 */
export function useRewindPlan(target: PlanTarget, enabled = true) {
  return useQuery({ queryKey: planKey(target), queryFn: () => fetchPlan(target), enabled, gcTime: 0 })
}

const planKey = (target: PlanTarget) =>
  target.kind === 'turn' ? ['rewind-plan', 'turn', target.sessionId, target.turn] : target.kind === 'undo' ? ['rewind-plan', 'undo', target.rewindId] : ['rewind-plan', 'version', target.workspaceId, target.pathId, target.hash]
const fetchPlan = (target: PlanTarget) =>
  target.kind === 'turn'
    ? call('rewind.plan', { sessionId: target.sessionId, turn: target.turn })
    : target.kind === 'undo'
      ? call('rewind.planUndo', { rewindId: target.rewindId })
      : call('rewind.planVersion', { workspaceId: target.workspaceId, pathId: target.pathId, hash: target.hash })

/** Previews of more files than this are compared again only when the window gets focus, not every few seconds. */
const WATCH_MAX_ITEMS = 500
/** Without a watch on the disk (the server could not watch these files): how often to compare while the window is elsewhere. */
const WATCH_EVERY_MS = 3000
/** The server ends a watch not renewed within a minute (a window closed without saying so). */
const RENEW_WATCH_MS = 20_000

/**
 * While a preview is on screen, compare it with the disk again whenever one of its files
 * changes (the server watches them and says so: `rewind.watchPreview`), focused or not, and when
 * the window gets focus back. Should the server be unable to watch them, every few seconds
 * while the window is elsewhere instead. A preview whose files changed is replaced by the fresh
 * one, and `onRefreshed` gets the paths whose rows changed (the dialog names them and holds
 * Apply back a moment, so a click aimed at the old preview does not apply the new one).
 */
export function useWatchPlan(target: PlanTarget, workspaceId: number | undefined, shown: RewindPlan | undefined, shownAt: number, enabled: boolean, onRefreshed: (paths: string[]) => void) {
  const client = useQueryClient()
  const focused = useWindowFocus()
  const { watching, changes } = useDiskWatch(enabled ? workspaceId : undefined, shown)
  // One comparison query per preview shown, starting from that preview: the first look at the
  // disk comes when something changed, not at once.
  const watch = useQuery({
    queryKey: ['rewind-plan-watch', ...planKey(target), shown?.token ?? ''],
    queryFn: () => fetchPlan(target),
    enabled: enabled && shown !== undefined,
    ...(shown ? { initialData: shown, initialDataUpdatedAt: shownAt } : {}),
    refetchInterval: !watching && !focused && shown && shown.items.length <= WATCH_MAX_ITEMS ? WATCH_EVERY_MS : false,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    staleTime: WATCH_EVERY_MS,
    gcTime: 0,
    retry: false
  })
  const { refetch } = watch
  useEffect(() => {
    if (changes > 0) void refetch()
  }, [changes, refetch])
  useEffect(() => {
    if (!enabled) return
    const onFocus = () => void refetch()
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [enabled, refetch])
  const fresh = watch.data
  const freshAt = watch.dataUpdatedAt
  useEffect(() => {
    // Only a comparison made after the preview on screen was made can replace it.
    if (!enabled || !fresh || !shown || freshAt <= shownAt || fresh.token === shown.token) return
    client.setQueryData(planKey(target), fresh)
    onRefreshed(changedPaths(shown.items, fresh.items))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- acts once per fresh comparison
  }, [fresh, freshAt])
}

/**
 * The server's watch on a preview's files while it is shown (renewed, and ended when it is not):
 * whether the server is watching them, and how many changes it reported.
 */
function useDiskWatch(workspaceId: number | undefined, shown: RewindPlan | undefined): { watching: boolean; changes: number } {
  const [watching, setWatching] = useState(false)
  const [changes, setChanges] = useState(0)
  // The same files, the same watch: a refreshed preview of them keeps it.
  const pathIds = shown?.items.map((item) => item.pathId) ?? []
  const files = pathIds.join('\n')
  useEffect(() => {
    if (workspaceId === undefined || files === '') return
    let watchId: string | undefined
    let ended = false
    const ask = () =>
      call('rewind.watchPreview', { workspaceId, pathIds: files.split('\n'), ...(watchId ? { watchId } : {}) }).then(
        (answer) => {
          if (ended) return void call('rewind.unwatchPreview', { watchId: answer.watchId }).catch(() => undefined)
          watchId = answer.watchId
          setWatching(answer.watching)
        },
        () => setWatching(false)
      )
    void ask()
    const renew = setInterval(() => void ask(), RENEW_WATCH_MS)
    const unsubscribe = onEvent((event) => {
      if (event.name === 'rewind.previewChanged' && event.payload.watchId === watchId) setChanges((count) => count + 1)
    })
    return () => {
      ended = true
      clearInterval(renew)
      unsubscribe()
      setWatching(false)
      if (watchId) void call('rewind.unwatchPreview', { watchId }).catch(() => undefined)
    }
  }, [workspaceId, files])
  return { watching, changes }
}

/** A session's rewinds (and undos), oldest first. */
export function useRewindList(sessionId: string) {
  return useQuery({ queryKey: rewindKeys.list(sessionId), queryFn: () => call('rewind.list', { sessionId }) })
}

/** Rewinds of this workspace a crash interrupted and start-up recovery finished, not yet dismissed. */
export function useUnseenRecoveries(workspaceId: number) {
  return useQuery({ queryKey: rewindKeys.recoveriesOf(workspaceId), queryFn: () => call('rewind.recoveries', { workspaceId, unseenOnly: true }) })
}

/** Whether the window has focus, kept up to date. */
function useWindowFocus(): boolean {
  const [focused, setFocused] = useState(() => document.hasFocus())
  useEffect(() => {
    const on = () => setFocused(true)
    const off = () => setFocused(false)
    window.addEventListener('focus', on)
    window.addEventListener('blur', off)
    return () => {
      window.removeEventListener('focus', on)
      window.removeEventListener('blur', off)
    }
  }, [])
  return focused
}
