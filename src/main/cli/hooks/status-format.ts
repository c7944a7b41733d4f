import type { AgentConnection, ConnectionFile } from '../../agent-hooks/connections-service'
import type { HookRun } from '../../agent-hooks/hook-log'
import { formatTime } from '../format'

/** `retrace hooks status` for a person: per agent, where its hooks and MCP server are, and its last runs. */
export function formatStatus(agents: AgentConnection[], home: string): string {
  const short = (file: string) => (home && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file)
  return agents
    .map((agent) => {
      const lines = [`${agent.label}`]
      lines.push(`  hooks: ${describeHooks(agent.hooks, short)}`)
      lines.push(`  MCP:   ${describeMcp(agent.mcp, short)}`)
      lines.push(`  last capture: ${agent.lastCapture ? describeRun(agent.lastCapture) : 'none yet'}`)
      if (agent.lastError) lines.push(`  last error:   ${formatTime(agent.lastError.at)} (${agent.lastError.phase}${agent.lastError.workspace ? ` in ${agent.lastError.workspace}` : ''}): ${agent.lastError.error ?? ''}`)
      for (const note of agent.notes) lines.push(`  note: ${note}`)
      return lines.join('\n')
    })
    .join('\n\n')
}

function describeHooks(files: ConnectionFile[], short: (file: string) => string): string {
  const found = files.filter((file) => file.begin || file.end || file.problem)
  if (found.length === 0) return `not installed (${files.map((file) => short(file.file)).join(', ')})`
  return found
    .map((file) => {
      if (file.problem) return `${short(file.file)}: ${file.problem}`
      const state = file.begin === 'current' && file.end === 'current' ? 'installed' : file.begin && file.end ? 'installed by another Retrace (run install to point it here)' : `only the ${file.begin ? 'begin' : 'end'} hook`
      return `${state} (${file.scope}: ${short(file.file)})`
    })
    .join('; ')
}

function describeMcp(files: ConnectionFile[], short: (file: string) => string): string {
  const found = files.filter((file) => file.mcp || file.problem)
  if (found.length === 0) return `not registered (${files.map((file) => short(file.file)).join(', ')})`
  return found
    .map((file) => {
      if (file.problem) return `${short(file.file)}: ${file.problem}`
      const state = file.mcp === 'current' ? 'registered' : file.mcp === 'other' ? 'registered for another Retrace' : 'a server named retrace that is not Retrace'
      return `${state} (${file.scope}: ${short(file.file)})`
    })
    .join('; ')
}

function describeRun(run: HookRun): string {
  const changes = run.changes === null ? '' : `, ${run.changes} file change${run.changes === 1 ? '' : 's'}`
  const by = run.via === 'app' ? ', captured by the running app' : ''
  const untracked = run.untracked ? `; ${run.untracked} path${run.untracked === 1 ? '' : 's'} not tracked (${run.untracked === 1 ? 'its changes are' : 'their changes are'} not recorded)` : ''
  return `${formatTime(run.at)}: turn ${run.turn ?? '?'} of ${run.sessionId ?? '?'}${run.workspace ? ` in ${run.workspace}` : ''}${changes} (${run.ms} ms${by})${untracked}`
}
