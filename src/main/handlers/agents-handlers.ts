import { RetraceError } from '../../shared/contract'
import type { Handlers } from '../rpc/dispatcher'
import { AgentConnectionsService, type ConnectOutcome } from '../agent-hooks/connections-service'
import type { HandlerContext } from './context'

/**
 * The Connect agents panel: the same service as `retrace hooks install|uninstall|status`, on this
 * data folder (so hooks installed from the app write where the app reads) and the importers'
 * environment (CLAUDE_CONFIG_DIR, CODEX_HOME…).
 */
export function agentsHandlers(ctx: HandlerContext): Pick<Handlers, 'agents.connections' | 'agents.connect' | 'agents.disconnect'> {
  const service = () => new AgentConnectionsService({ dataDir: ctx.store.dataDir, env: ctx.imports.environment })
  const workspacePath = (workspaceId: number | undefined): string | undefined => {
    if (workspaceId === undefined) return undefined
    const workspace = ctx.store.workspaces.get(workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${workspaceId}.`)
    return workspace.path
  }
  const connect = (action: 'install' | 'uninstall', input: { agent: 'claude-code' | 'gemini' | 'codex' | 'cursor' | 'copilot'; scope: 'user' | 'project'; workspaceId?: number | undefined; mcp: boolean }) => {
    const workspace = workspacePath(input.workspaceId) ?? ctx.imports.environment.HOME ?? ''
    let outcome: ConnectOutcome
    try {
      const request = { agents: [input.agent], scope: input.scope, workspace, hooks: true, mcp: input.mcp, dryRun: false }
      outcome = action === 'install' ? service().install(request) : service().uninstall(request)
    } catch (error) {
      // No Node to run hooks with (a packaged app without one): say so, as the contract's error.
      throw new RetraceError('VALIDATION', error instanceof Error ? error.message : String(error))
    }
    return { files: outcome.files.map((file) => ({ file: file.file, what: file.what, backup: file.backup ?? null })), problems: outcome.problems }
  }
  return {
    'agents.connections': ({ workspaceId }) => ({ items: service().status(workspacePath(workspaceId)) }),
    'agents.connect': (input) => connect('install', input),
    'agents.disconnect': (input) => connect('uninstall', input)
  }
}
