import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { RetraceError } from '../../../shared/contract'
import { AGENT_TARGETS, HOOK_AGENTS, isHookAgent, type HookAgent, type HookScope } from '../../agent-hooks/agent-targets'
import { AgentConnectionsService, type ConnectOutcome, type ConnectRequest } from '../../agent-hooks/connections-service'
import type { Output } from '../commands'
import { formatStatus } from './status-format'

export const HOOKS_USAGE = `  retrace checkpoint begin|end --hook AGENT   what an installed hook runs: reads that agent's JSON on stdin,
                                             prints nothing (Cursor: its answer), always exits 0, logs the
                                             outcome for \`retrace hooks status\`
  retrace hooks install [--agent ${'NAME'}|all] [--scope user|project] [--workspace PATH] [--no-mcp] [--dry-run]
                                             make each agent run checkpoint begin/end around every turn, in its
                                             own settings (agents: ${'claude-code, gemini, codex, cursor, copilot'};
                                             all, the default: those found here), and register Retrace's MCP
                                             server; a backup is kept beside each file; --dry-run shows the diffs
  retrace hooks uninstall [same flags]       take out exactly what install added
  retrace hooks status [--agent NAME] [--json]
                                             per agent: hooks and MCP server (in which file), the last turn
                                             captured, the last error of a hook run
  retrace mcp install|uninstall [--agent NAME|all] [--scope user|project] [--dry-run]
                                             only the MCP server's registration`

export interface HooksFlags {
  agent: string | undefined
  scope: string | undefined
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
    const shown = flags.agent && flags.agent !== 'all' ? status.filter((agent) => agent.agent === parseAgent(flags.agent as string)) : status
    context.io.out(flags.json ? JSON.stringify(shown, null, 2) : formatStatus(shown, context.env.HOME ?? homedir()))
    return 0
  }
  if (action !== 'install' && action !== 'uninstall') throw new RetraceError('VALIDATION', kind === 'hooks' ? `Use "retrace hooks install", "uninstall" or "status", not "${action || '(nothing)'}".` : `Use "retrace mcp install" or "retrace mcp uninstall", not "${action || '(nothing)'}".`)
  const { agents, skipped } = chooseAgents(flags.agent, context.env)
  const request: ConnectRequest = { agents, scope: parseScope(flags.scope), workspace, hooks: kind === 'hooks', mcp: kind === 'mcp' || !flags.noMcp, dryRun: flags.dryRun }
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
function chooseAgents(value: string | undefined, env: NodeJS.ProcessEnv): { agents: HookAgent[]; skipped: string[] } {
  if (value !== undefined && value !== 'all') return { agents: [...new Set(value.split(',').map((name) => parseAgent(name.trim())))], skipped: [] }
  const agents: HookAgent[] = []
  const skipped: string[] = []
  for (const agent of HOOK_AGENTS) {
    const target = AGENT_TARGETS[agent]
    if (existsSync(target.home(env))) agents.push(agent)
    else skipped.push(`${target.label}: not found (no ${target.home(env)}); skipped. Use --agent ${agent} to write its settings anyway.`)
  }
  return { agents, skipped }
}

function parseAgent(name: string): HookAgent {
  if (!isHookAgent(name)) throw new RetraceError('VALIDATION', `--agent must be one of ${HOOK_AGENTS.join(', ')} or all, not "${name}".`)
  return name
}

function parseScope(value: string | undefined): HookScope {
  if (value === undefined || value === 'user') return 'user'
  if (value === 'project') return 'project'
  throw new RetraceError('VALIDATION', `--scope must be user or project, not "${value}".`)
}
