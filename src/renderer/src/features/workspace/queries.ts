import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { workspaceKeys } from '../../state/query-keys'

const RECENT_LIMIT = 50

export const appKeys = {
  folders: (path: string | null) => ['folders', path] as const
}

export function useRecentWorkspaces() {
  return useQuery({ queryKey: workspaceKeys.recent(), queryFn: () => call('workspaces.listRecent', { limit: RECENT_LIMIT }) })
}

/**
 * Every workspace: opened, imported, or only recorded in the agents' histories. The server answers
 * from its index at once and refreshes it behind; `data.changed {workspaces}` brings the re-read.
 */
export function useAllWorkspaces() {
  return useQuery({ queryKey: workspaceKeys.every(), queryFn: () => call('workspaces.listAll', { refresh: 'background' }) })
}

/** What forgetting a workspace removes (read when its dialog opens, so the count is current). */
export function useForgetPlan(workspaceId: number) {
  return useQuery({ queryKey: [...workspaceKeys.detail(workspaceId), 'forget-plan'], queryFn: () => call('workspaces.forgetPlan', { workspaceId }), staleTime: 0 })
}

export function useWorkspace(workspaceId: number) {
  return useQuery({ queryKey: workspaceKeys.detail(workspaceId), queryFn: () => call('workspaces.get', { workspaceId }) })
}

/** Sub-folders on the serving machine; `null` asks for the server's starting folder (home). */
export function useFolders(path: string | null) {
  return useQuery({
    queryKey: appKeys.folders(path),
    queryFn: () => call('folders.list', path === null ? {} : { path }),
    // The file system changes without data.changed events: re-read when revisited.
    staleTime: 0,
    placeholderData: (previous) => previous
  })
}
