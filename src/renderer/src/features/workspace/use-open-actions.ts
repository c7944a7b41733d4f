import { useState } from 'react'
import { useOpenDemo, useOpenWorkspace, usePickAndOpen } from './mutations'

type Action = 'path' | 'demo' | 'pick'

/**
 * The first screen's three ways to open a workspace, sharing one pending flag and one inline
 * error (the latest attempt's), so the user sees exactly one message about what just failed.
 */
export function useOpenActions() {
  const openPath = useOpenWorkspace()
  const openDemo = useOpenDemo()
  const pick = usePickAndOpen()
  const [last, setLast] = useState<Action | null>(null)

  const byAction = { path: openPath, demo: openDemo, pick } as const
  const lastMutation = last ? byAction[last] : null

  return {
    pending: openPath.isPending || openDemo.isPending || pick.isPending,
    error: lastMutation?.error ?? null,
    openPath: (path: string) => {
      setLast('path')
      openPath.mutate(path)
    },
    openDemo: () => {
      setLast('demo')
      openDemo.mutate()
    },
    pickFolder: () => {
      setLast('pick')
      pick.mutate()
    }
  }
}
