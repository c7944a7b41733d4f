import { useMutation, useQueryClient } from '@tanstack/react-query'
import { call } from '../../api/client'
import type { ConflictChoice, RewindResult } from './plan-model'
import type { PlanTarget } from './queries'
import { rewindKeys } from '../../state/query-keys'

export interface ApplyInput {
  token: string
  choices: { pathId: string; choice: ConflictChoice }[]
  /** The ticked files among those the preview says need confirmation. */
  confirmed: string[]
  /** The files the user unticked: left as they are. */
  excluded: string[]
}

/**
 * Apply a previewed rewind or undo. Always with the preview's token: if the disk changed since,
 * the server writes nothing and answers CONFLICT. The server pushes `data.changed` afterwards;
 * the history of the session is refreshed here as well so the dialog's own session is current
 * even before the push arrives.
 */
export function useApplyPlan(target: PlanTarget) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ token, choices, confirmed, excluded }: ApplyInput): Promise<RewindResult> =>
      target.kind === 'turn'
        ? call('rewind.apply', { sessionId: target.sessionId, turn: target.turn, token, choices, defaultChoice: 'skip', confirmed, excluded })
        : target.kind === 'undo'
          ? call('rewind.undo', { rewindId: target.rewindId, token, choices, defaultChoice: 'skip', confirmed, excluded })
          : // One file, no other decision on it: there is nothing to untick.
            call('rewind.applyVersion', { workspaceId: target.workspaceId, pathId: target.pathId, hash: target.hash, token, choices, defaultChoice: 'skip', confirmed }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: rewindKeys.list(target.sessionId) })
  })
}

/** The user has read what recovery did with a rewind: it leaves the workspace's notice. */
export function useDismissRecovery(workspaceId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (rewindId: string) => call('rewind.dismissRecovery', { rewindId }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: rewindKeys.recoveriesOf(workspaceId) })
  })
}
