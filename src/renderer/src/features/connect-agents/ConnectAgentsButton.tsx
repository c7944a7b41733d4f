import { DialogButton } from '../../ui/DialogButton'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api/client'
import { ErrorState, Loading } from '../../ui/States'
import { AgentConnectionCard } from './AgentConnectionCard'
import type { Scope } from './connection-state'

const connectionsKey = (workspaceId: number) => ['agent-connections', workspaceId] as const

/** "Connect agents" in the workspace's More menu: each agent's checkpoint hooks and MCP server, and their last runs. */
export function ConnectAgentsButton({ workspaceId, isDemo = false }: { workspaceId: number; isDemo?: boolean }) {
  return (
    <DialogButton label="Connect agents" tooltip="Make agents capture every turn (shell changes included) through their hooks, and register Retrace's MCP server" dialogTitle="Connect agents" testId="connect-agents">
      <ConnectAgentsView workspaceId={workspaceId} isDemo={isDemo} />
    </DialogButton>
  )
}

/** In the demo, settings go to every project only: the demo folder is Retrace's, no project of the user's. */
function ConnectAgentsView({ workspaceId, isDemo }: { workspaceId: number; isDemo: boolean }) {
  const queryClient = useQueryClient()
  // Hooks run in the agents' processes: look again now and then for their last runs.
  const connections = useQuery({ queryKey: connectionsKey(workspaceId), queryFn: () => call('agents.connections', { workspaceId }), refetchInterval: 5000 })
  const [scope, setScope] = useState<Scope>('user')
  const [withMcp, setWithMcp] = useState(true)
  const refresh = () => void queryClient.invalidateQueries({ queryKey: connectionsKey(workspaceId) })
  return (
    <div className="connect-agents">
      <p className="dialog-intro">
        An agent&apos;s hooks can run <span className="mono">retrace checkpoint begin</span> before each turn and <span className="mono">end</span> after it, so every change of the turn is journaled and can be rewound, shell-made ones (<span className="mono">rm</span>, <span className="mono">mv</span>, generators) included. Retrace writes those hooks, and its MCP server, into each agent&apos;s own settings: merged with what is there, a backup beside each file, and Uninstall takes out exactly what it added. A failing capture never stops the agent; its error shows here.
      </p>
      <div className="connect-agents-options">
        <fieldset className="connect-agents-scope">
          <legend>Write the settings for</legend>
          <label>
            <input type="radio" name="connect-scope" checked={scope === 'user'} onChange={() => setScope('user')} data-testid="connect-scope-user" /> every project (the agent&apos;s own settings)
          </label>
          <label>
            <input type="radio" name="connect-scope" checked={scope === 'project'} onChange={() => setScope('project')} disabled={isDemo} data-testid="connect-scope-project" /> this workspace only (its project files)
            {isDemo ? <span className="muted"> — open your project folder for this</span> : null}
          </label>
        </fieldset>
        <label className="connect-agents-mcp">
          <input type="checkbox" checked={withMcp} onChange={(event) => setWithMcp(event.target.checked)} data-testid="connect-with-mcp" /> also register Retrace&apos;s MCP server
        </label>
      </div>
      {connections.isError ? <ErrorState title="Cannot read the agents' settings" error={connections.error} onRetry={refresh} /> : null}
      {!connections.data && !connections.isError ? <Loading label="Reading the agents' settings…" /> : null}
      <ul className="agent-cards" data-testid="agent-connections">
        {connections.data?.items.map((agent) => (
          <AgentConnectionCard key={agent.agent} agent={agent} scope={scope} workspaceId={workspaceId} withMcp={withMcp} onChanged={refresh} />
        ))}
      </ul>
    </div>
  )
}
