import { useMutation, useQueryClient } from '@tanstack/react-query'
import { call } from '../../api/client'
import { rewindKeys } from '../../state/query-keys'
import type { ConflictChoice } from './plan-model'
import { sessionKeys } from '../../state/query-keys'

export interface ForkInput {
  sessionId: string
  turn: number
  title: string | undefined
  /** With files: the preview's token and the choice per conflict (both happen or neither). */
  files: { token: string; choices: { pathId: string; choice: ConflictChoice }[]; confirmed: string[]; excluded: string[] } | null
}

/** `sessions.fork`: a branch from before a turn, optionally with the files rewound in the same intent. */
export function useForkSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ sessionId, turn, title, files }: ForkInput) =>
      call('sessions.fork', {
        sessionId,
        turn,
        ...(title ? { title } : {}),
        withFiles: files !== null,
        ...(files ? { token: files.token, choices: files.choices, confirmed: files.confirmed, excluded: files.excluded } : {}),
        defaultChoice: 'skip'
      }),
    onSuccess: (_result, input) => {
      // The server pushes data.changed as well; this makes the new branch's list row current at once.
      void queryClient.invalidateQueries({ queryKey: sessionKeys.lists() })
      if (input.files) void queryClient.invalidateQueries({ queryKey: rewindKeys.list(input.sessionId) })
    }
  })
}

/** `sessions.merge`: a branch's messages into its parent (append, or replace the parent's since the fork in context). */
export function useMergeBranch() {
  return useMutation({
    mutationFn: ({ branchId, mode }: { branchId: string; mode: 'append' | 'replace' }) => call('sessions.merge', { branchId, mode })
  })
}

/** `sessions.unmerge`: take a branch's latest merge back out of its parent (the server pushes data.changed). */
export function useUnmergeBranch() {
  return useMutation({
    mutationFn: ({ branchId }: { branchId: string }) => call('sessions.unmerge', { branchId })
  })
}
