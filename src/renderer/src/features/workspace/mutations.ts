import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { WorkspaceSummary } from '../../../../shared/contract'
import { call } from '../../api/client'
import { useUiStore } from '../../state/ui-store'
import { workspaceKeys } from '../../state/query-keys'

/** After any successful open: seed the detail query, refresh the recent list, navigate. */
function useOnOpened(): (workspace: WorkspaceSummary) => void {
  const queryClient = useQueryClient()
  const openWorkspace = useUiStore((state) => state.openWorkspace)
  return (workspace) => {
    queryClient.setQueryData(workspaceKeys.detail(workspace.id), workspace)
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.recent() })
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.every() })
    openWorkspace(workspace.id)
  }
}

export function useOpenWorkspace() {
  const onOpened = useOnOpened()
  return useMutation({
    mutationFn: (path: string) => call('workspaces.open', { path }),
    onSuccess: onOpened
  })
}

export function useOpenDemo() {
  const onOpened = useOnOpened()
  return useMutation({
    mutationFn: () => call('workspaces.openDemo', {}),
    onSuccess: onOpened
  })
}

/** A workspace from the recent list, by id: it works even if the folder has moved since. */
export function useReopenWorkspace() {
  const onOpened = useOnOpened()
  return useMutation({
    mutationFn: (workspaceId: number) => call('workspaces.reopen', { workspaceId }),
    onSuccess: onOpened
  })
}

/** Electron only: the native dialog, then open what was picked (nothing when cancelled). */
export function usePickAndOpen() {
  const onOpened = useOnOpened()
  return useMutation({
    mutationFn: async (): Promise<WorkspaceSummary | null> => {
      const { path } = await call('workspaces.pickFolder', {})
      return path === null ? null : call('workspaces.open', { path })
    },
    onSuccess: (workspace) => {
      if (workspace) onOpened(workspace)
    }
  })
}

/** Hide a workspace from the first screen, or show it again (the server announces the change too). */
export function useSetHidden() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { path: string; hidden: boolean }) => call('workspaces.setHidden', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
  })
}

/** Forget a workspace: its sessions leave the store, for the count the user confirmed. */
export function useForgetWorkspace() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { workspaceId: number; sessions: number }) => call('workspaces.forget', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
  })
}
