import { useEffect } from 'react'
import { FirstScreen, WorkspaceView } from '../features/workspace'
import { applyTheme } from '../state/theme'
import { useUiStore } from '../state/ui-store'
import { ShortcutsHelp } from '../ui/ShortcutsHelp'
import { AuthProblem } from './AuthProblem'
import { ConnectionBanner } from './ConnectionBanner'
import { useHashSync } from './use-hash-sync'
import { useServerEvents } from './use-server-events'

/** Top level: app-wide concerns (theme, URL), then the app — or why it cannot run. */
export function App() {
  const authProblem = useUiStore((state) => state.authProblem)
  const theme = useUiStore((state) => state.theme)
  useHashSync()

  useEffect(() => applyTheme(theme), [theme])

  // Unmounting Screens also ends the event subscription, so a refused token stops the retries.
  return authProblem !== null ? <AuthProblem detail={authProblem} /> : <Screens />
}

/** The workspace list or one workspace, kept current by the server's pushed events. */
function Screens() {
  const workspaceId = useUiStore((state) => state.workspaceId)
  const connection = useServerEvents()
  return (
    <>
      <ConnectionBanner state={connection} />
      <ShortcutsHelp />
      {workspaceId === null ? <FirstScreen /> : <WorkspaceView key={workspaceId} workspaceId={workspaceId} />}
    </>
  )
}
