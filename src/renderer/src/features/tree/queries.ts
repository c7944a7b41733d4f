import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'

/** Query keys of session trees, one per workspace. */
export const treeKeys = {
  all: ['tree'] as const,
  of: (workspaceId: number) => [...treeKeys.all, workspaceId] as const
}

/** Every session of the workspace with its links and merges: the graph view's one query. */
export function useSessionTree(workspaceId: number) {
  return useQuery({ queryKey: treeKeys.of(workspaceId), queryFn: () => call('sessions.tree', { workspaceId }) })
}
