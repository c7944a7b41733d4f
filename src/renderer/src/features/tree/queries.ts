import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { treeKeys } from '../../state/query-keys'

/** Every session of the workspace with its links and merges: the graph view's one query. */
export function useSessionTree(workspaceId: number) {
  return useQuery({ queryKey: treeKeys.of(workspaceId), queryFn: () => call('sessions.tree', { workspaceId }) })
}
