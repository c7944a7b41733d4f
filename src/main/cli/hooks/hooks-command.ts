import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { AGENT_TARGETS, HOOK_AGENTS, type HookAgent, type HookScope } from '../../agent-hooks/agent-targets'
import { AgentConnectionsService, type ConnectOutcome, type ConnectRequest } from '../../agent-hooks/connections-service'
import type { Output } from '../commands'
import { UsageError } from '../usage-error'
import { formatStatus } from './status-format'

export interface HooksFlags {
  /** The agents named (`--agent a,b`), or all of those found here (`all`, or none named). */
  agent: HookAgent[] | 'all' | undefined
  scope: HookScope | undefined
  workspace: string | undefined
  dryRun: boolean
  noMcp: boolean
  json: boolean
}

/**
 * `retrace hooks install|uninstall|status` (the checkpoint hooks, and Retrace's MCP server unless
 * --no-mcp) and `retrace mcp install|uninstall` (the MCP server only), in the agents' own settings.
 */
export function hooksCommand(kind: 'hooks' | 'mcp', action: string, flags: HooksFlags, context: { dataDir: string; env: NodeJS.ProcessEnv; io: Output }): number {
  const service = new AgentConnectionsService({ dataDir: context.dataDir, env: context.env })
  const workspace = flags.workspace ?? process.cwd()
  if (kind === 'hooks' && action === 'status') {
    const status = service.status(flags.workspace ?? process.cwd())
    const named = flags.agent === undefined || flags.agent === 'all' ? null : flags.agent
    const shown = named ? status.filter((agent) => named.includes(agent.agent)) : status
    context.io.out(flags.json ? JSON.stringify(shown, null, 2) : formatStatus(shown, context.env.HOME ?? homedir()))
    return 0
  }
  if (action !== 'install' && action !== 'uninstall') throw new UsageError(`Use \`retrace ${kind} install\`${kind === 'hooks' ? ', `uninstall` or `status`' : ' or `uninstall`'}, not "${action || '(nothing)'}".`)
  const { agents, skipped } = chooseAgents(flags.agent, context.env)
  const request: ConnectRequest = { agents, scope: flags.scope ?? 'user', workspace, hooks: kind === 'hooks', mcp: kind === 'mcp' || !flags.noMcp, dryRun: flags.dryRun }
  const outcome = action === 'install' ? service.install(request) : service.uninstall(request)
  if (flags.json) context.io.out(JSON.stringify({ ...outcome, skipped }, null, 2))
  else report(outcome, request, skipped, action, context.io)
  return outcome.problems.length > 0 ? 1 : 0
}

function report(outcome: ConnectOutcome, request: ConnectRequest, skipped: string[], action: string, io: Output): void {
  for (const agent of request.agents) {
    const label = AGENT_TARGETS[agent].label
    const files = outcome.files.filter((file) => file.agent === agent)
    if (outcome.problems.some((problem) => problem.agent === agent)) continue
    if (files.length === 0) io.out(`${label}: ${action === 'install' ? 'already connected' : 'nothing of Retrace\'s found'}; nothing to change.`)
    for (const file of files) {
      if (request.dryRun) {
        io.out(`${label}: would change ${file.file} (${file.what.join('; ')}):`)
        io.out(file.diff.trimEnd())
        continue
      }
      io.out(`${label}: ${file.file}: ${file.what.join('; ')}.${file.backup ? ` Backup: ${file.backup}` : ''}`)
    }
  }
  for (const problem of outcome.problems) io.err(`retrace: ${AGENT_TARGETS[problem.agent].label}: ${problem.message}`)
  for (const line of skipped) io.out(line)
  if (!request.dryRun && action === 'install' && request.hooks && request.agents.includes('codex') && outcome.files.some((file) => file.agent === 'codex')) {
    io.out('Codex CLI runs a new hook only once you trust it: open /hooks in Codex and trust the two Retrace hooks.')
  }
  if (!request.dryRun && outcome.files.length > 0) io.out('Agents read their settings when they start: restart any that are running.')
}

/** `--agent NAME` (also a comma-separated list) or `all`: every agent whose own folder exists here. */
function chooseAgents(value: HookAgent[] | 'all' | undefined, env: NodeJS.ProcessEnv): { agents: HookAgent[]; skipped: string[] } {
  if (value !== undefined && value !== 'all') return { agents: value, skipped: [] }
  const agents: HookAgent[] = []
  const skipped: string[] = []
  for (const agent of HOOK_AGENTS) {
    const target = AGENT_TARGETS[agent]
    if (existsSync(target.home(env))) agents.push(agent)
    else skipped.push(`${target.label}: not found (no ${target.home(env)}); skipped. Use --agent ${agent} to write its settings anyway.`)
  }
  return { agents, skipped }
}
