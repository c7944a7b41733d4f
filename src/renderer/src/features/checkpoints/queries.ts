import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { call } from '../../api/client'
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
const WATCH_EVERY_MS = 3000

/**
 * While a preview is on screen, compare it with the disk again when the window gets focus back
 * (the user was in their editor) and every few seconds while it does not have it: a preview
 * whose files changed is replaced by the fresh one, and `onRefreshed` gets the paths whose rows
 * changed. Not while the window has focus: the preview the user is reading and clicking in does
 * not change under the pointer (an apply of a preview the disk has left behind is refused by the
 * server, naming the files, as before).
 */
export function useWatchPlan(target: PlanTarget, shown: RewindPlan | undefined, shownAt: number, enabled: boolean, onRefreshed: (paths: string[]) => void) {
  const client = useQueryClient()
  const focused = useWindowFocus()
  // One comparison query per preview shown, starting from that preview: the first look at the
  // disk comes a few seconds after it was made, not at once.
  const watch = useQuery({
    queryKey: ['rewind-plan-watch', ...planKey(target), shown?.token ?? ''],
    queryFn: () => fetchPlan(target),
    enabled: enabled && shown !== undefined,
    ...(shown ? { initialData: shown, initialDataUpdatedAt: shownAt } : {}),
    refetchInterval: !focused && shown && shown.items.length <= WATCH_MAX_ITEMS ? WATCH_EVERY_MS : false,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    staleTime: WATCH_EVERY_MS,
    gcTime: 0,
    retry: false
  })
  const { refetch } = watch
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
