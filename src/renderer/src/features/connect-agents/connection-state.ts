import type { AgentConnection, ConnectionFile } from '../../../../shared/contract'

export type Scope = 'user' | 'project'

/** How an agent's hooks stand in the settings of one scope. */
export type HookStanding = 'connected' | 'other-retrace' | 'partial' | 'absent' | 'unreadable'

export function hookStanding(file: ConnectionFile | undefined): HookStanding {
  if (!file) return 'absent'
  if (file.problem) return 'unreadable'
  if (file.begin === 'current' && file.end === 'current') return 'connected'
  if (file.begin && file.end) return 'other-retrace'
  return file.begin || file.end ? 'partial' : 'absent'
}

export const STANDING_LABELS: Record<HookStanding, string> = {
  connected: 'Connected',
  'other-retrace': 'Runs another Retrace',
  partial: 'Half connected',
  absent: 'Not connected',
  unreadable: 'Settings unreadable'
}

/** The agent's standing overall: connected in either scope wins, then what the chosen scope says. */
export function overallStanding(agent: AgentConnection, scope: Scope): HookStanding {
  const standings = agent.hooks.map(hookStanding)
  if (standings.includes('connected')) return 'connected'
  return hookStanding(agent.hooks.find((file) => file.scope === scope))
}

/** Whether Install would change something in this scope, and whether Uninstall would. */
export function actions(agent: AgentConnection, scope: Scope, withMcp: boolean): { install: boolean; uninstall: boolean } {
  const hooks = agent.hooks.find((file) => file.scope === scope)
  const mcp = agent.mcp.find((file) => file.scope === scope)
  const standing = hookStanding(hooks)
  const mcpHere = mcp?.mcp === 'current' || mcp?.mcp === 'other'
  return {
    install: standing !== 'unreadable' && (standing !== 'connected' || (withMcp && mcp?.mcp !== 'current' && mcp?.mcp !== 'foreign')),
    uninstall: standing === 'connected' || standing === 'other-retrace' || standing === 'partial' || (withMcp && mcpHere)
  }
}
