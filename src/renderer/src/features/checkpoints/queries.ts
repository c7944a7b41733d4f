import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { rewindKeys } from '../../state/query-keys'

/** What a preview is of: rewinding a session's files to before a turn, or undoing a rewind. */
export type PlanTarget = { kind: 'turn'; sessionId: string; turn: number } | { kind: 'undo'; sessionId: string; rewindId: string }

/**
 * A preview. Deliberately outside `rewindKeys`: a preview is a snapshot the user is reading and
 * choosing against, so a pushed change must not swap it (and its token) under them; if the disk
 * moved, apply answers CONFLICT and the user asks for a new preview. Never cached: opening the
 * dialog again always hashes the disk again.
 */
export function useRewindPlan(target: PlanTarget, enabled = true) {
  return useQuery({
    queryKey: target.kind === 'turn' ? ['rewind-plan', 'turn', target.sessionId, target.turn] : ['rewind-plan', 'undo', target.rewindId],
    queryFn: () => (target.kind === 'turn' ? call('rewind.plan', { sessionId: target.sessionId, turn: target.turn }) : call('rewind.planUndo', { rewindId: target.rewindId })),
    enabled,
    gcTime: 0
  })
}

/** A session's rewinds (and undos), oldest first. */
export function useRewindList(sessionId: string) {
  return useQuery({ queryKey: rewindKeys.list(sessionId), queryFn: () => call('rewind.list', { sessionId }) })
}

/** Rewinds of this workspace a crash interrupted and start-up recovery finished, not yet dismissed. */
export function useUnseenRecoveries(workspaceId: number) {
  return useQuery({ queryKey: rewindKeys.recoveriesOf(workspaceId), queryFn: () => call('rewind.recoveries', { workspaceId, unseenOnly: true }) })
}
