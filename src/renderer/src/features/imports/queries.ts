import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { call } from '../../api/client'
import { importKeys } from '../../state/query-keys'

export function useImportStatus(workspaceId: number) {
  return useQuery({ queryKey: importKeys.status(workspaceId), queryFn: () => call('imports.status', { workspaceId }) })
}

/** Stop the running import (what it committed stays; following goes on for the rest). */
export function useCancelImport(workspaceId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => call('imports.cancel', { workspaceId }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: importKeys.status(workspaceId) })
  })
}

/** Import what is left (after a cancel) or try again (after a failure); progress arrives as events. */
export function useRunImport(workspaceId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => call('imports.run', { workspaceId }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: importKeys.status(workspaceId) })
  })
}
