import { resolve } from 'node:path'
import { AGENT_TARGETS, type AgentTarget, type HookAgent, type HookScope } from './agent-targets'
import { ConfigFileChanged } from '../fs/config-file-write'
import { CreatedRecord, readConfig } from './config-files'
import { ConfigPlan, type PlannedFile } from './config-plan'
import { hookState, planHooksInstall, planHooksUninstall } from './hook-files'
import { lastRuns, readHookRuns, type HookRun } from './hook-log'
import { parseJsonc, valueAt } from './jsonc-edit'
import { mcpState, planMcpInstall, planMcpUninstall } from './mcp-files'
import { hookCommand, retraceProgram, shellWord, type RetraceProgram } from './retrace-command'

export interface ConnectRequest {
  agents: HookAgent[]
  scope: HookScope
  /** The project whose files `scope: project` edits (and whose files status also reads). */
  workspace: string
  /** Write (or remove) the begin/end hooks; and the MCP server registration. */
  hooks: boolean
  mcp: boolean
  dryRun: boolean
}

export interface ConnectOutcome {
  /** The files changed (or that would be, under dry run), with their diffs and backups. */
  files: PlannedFile[]
  /** Agents whose files were left as they were, and why. */
  problems: { agent: HookAgent; message: string }[]
}

/** One file an agent reads Retrace's hooks or MCP server from, as found. */
export interface ConnectionFile {
  scope: HookScope
  file: string
  /** Whether each hook is there with this Retrace's command ('other': an older or moved Retrace's). */
  begin?: 'current' | 'other' | null
  end?: 'current' | 'other' | null
  mcp?: 'current' | 'other' | 'foreign' | null
  problem?: string
}

/** One CLI command per scope (project: only when a workspace was given). */
export interface ScopedCommands {
  user: string
  project: string | null
}

export interface AgentConnection {
  agent: HookAgent
  label: string
  source: string
  captures: string
  limits: string
  events: { begin: string; end: string }
  hooks: ConnectionFile[]
  mcp: ConnectionFile[]
  lastCapture: HookRun | null
  lastError: HookRun | null
  /** The exact commands the agent's settings would run, and the CLI commands that connect or disconnect it. */
  commands: { begin: string; end: string; install: ScopedCommands; uninstall: ScopedCommands } | null
  notes: string[]
}

/** How many times an agent's files are planned and written again when someone writes them meanwhile. */
const WRITE_ATTEMPTS = 3

/**
 * Connects agents to Retrace: writes (and removes) their checkpoint hooks and the registration of
 * Retrace's MCP server in their own settings, and tells how each is connected. Every change keeps
 * a backup beside the file, is written atomically, changes nothing on a second install, and
 * uninstall takes out exactly what install put in. The CLI and the window's panel both use it.
 */
export class AgentConnectionsService {
  constructor(
    private readonly options: {
      dataDir: string
      env: NodeJS.ProcessEnv
      program?: () => RetraceProgram
      /** Runs between Retrace's write of a file's new text and its check and rename: where tests write as a concurrent writer would. */
      whileWriting?: (file: string) => void
    }
  ) {}

  install(request: ConnectRequest): ConnectOutcome {
    return this.run(request, (plan, target, files, program) => {
      if (request.hooks) planHooksInstall(plan, target, files.hooks, program)
      if (request.mcp) planMcpInstall(plan, target, files.mcp, program)
    })
  }

  uninstall(request: ConnectRequest): ConnectOutcome {
    return this.run(request, (plan, target, files) => {
      if (request.mcp) planMcpUninstall(plan, target, files.mcp)
      if (request.hooks) planHooksUninstall(plan, target, files.hooks)
    })
  }

  /** Every agent's hooks and MCP registration (user files, and the workspace's when given) and its last runs. */
  status(workspace?: string): AgentConnection[] {
    const runs = readHookRuns(this.options.dataDir)
    let program: RetraceProgram | null = null
    const notes: string[] = []
    try {
      program = this.program()
    } catch (error) {
      notes.push((error as Error).message)
    }
    const scopes: HookScope[] = workspace ? ['user', 'project'] : ['user']
    return Object.values(AGENT_TARGETS).map((target) => ({
      agent: target.agent,
      label: target.label,
      source: target.source,
      captures: target.captures,
      limits: target.limits,
      events: target.events,
      hooks: distinct(scopes.map((scope) => this.hookFile(target, scope, workspace ?? '', program))),
      mcp: distinct(scopes.map((scope) => this.mcpFile(target, scope, workspace ?? '', program))),
      ...lastRuns(runs, target.agent),
      commands: program ? { begin: hookCommand(program, 'begin', target.agent), end: hookCommand(program, 'end', target.agent), install: cliCommands(program, 'install', target.agent, workspace), uninstall: cliCommands(program, 'uninstall', target.agent, workspace) } : null,
      notes: [...notes, ...settingNotes(target, this.options.env)]
    }))
  }

  private run(request: ConnectRequest, plan: (plan: ConfigPlan, target: AgentTarget, files: { hooks: string; mcp: string }, program: RetraceProgram) => void): ConnectOutcome {
    const program = this.program()
    const record = new CreatedRecord(this.options.dataDir)
    const workspace = resolve(request.workspace)
    const outcome: ConnectOutcome = { files: [], problems: [] }
    for (const agent of request.agents) {
      const target = AGENT_TARGETS[agent]
      const files = { hooks: target.hooksFile[request.scope](this.options.env, workspace), mcp: target.mcp.file[request.scope](this.options.env, workspace) }
      for (let attempt = 1; ; attempt++) {
        const agentPlan = new ConfigPlan(agent, record)
        try {
          plan(agentPlan, target, files, program)
          outcome.files.push(...(request.dryRun ? agentPlan.changes() : agentPlan.apply(Date.now(), this.options.whileWriting)))
          break
        } catch (error) {
          // The agent (or the person) saved the file meanwhile: plan again on what it holds now.
          if (error instanceof ConfigFileChanged && attempt < WRITE_ATTEMPTS) continue
          outcome.problems.push({ agent, message: error instanceof Error ? error.message : String(error) })
          break
        }
      }
    }
    if (!request.dryRun) record.save()
    return outcome
  }

  private program(): RetraceProgram {
    return this.options.program ? this.options.program() : retraceProgram(this.options.dataDir)
  }

  private hookFile(target: AgentTarget, scope: HookScope, workspace: string, program: RetraceProgram | null): ConnectionFile {
    const path = target.hooksFile[scope](this.options.env, workspace)
    try {
      const { file, text, exists } = readConfig(path)
      if (!exists) return { scope, file, begin: null, end: null }
      return { scope, file, ...hookState(parseJsonc(text.trim() === '' ? '{}' : text, file), target, program) }
    } catch (error) {
      return { scope, file: path, begin: null, end: null, problem: (error as Error).message }
    }
  }

  private mcpFile(target: AgentTarget, scope: HookScope, workspace: string, program: RetraceProgram | null): ConnectionFile {
    const path = target.mcp.file[scope](this.options.env, workspace)
    try {
      const { file, text, exists } = readConfig(path)
      if (!exists) return { scope, file, mcp: null }
      return { scope, file, mcp: mcpState(text, file, target, program) }
    } catch (error) {
      return { scope, file: path, mcp: null, problem: (error as Error).message }
    }
  }
}

/** A workspace that is the home folder has the user's files as its project files: listed once, as the user's. */
function distinct(files: ConnectionFile[]): ConnectionFile[] {
  return files.filter((file, index) => files.findIndex((other) => other.file === file.file) === index)
}

function cliCommands(program: RetraceProgram, action: 'install' | 'uninstall', agent: HookAgent, workspace: string | undefined): ScopedCommands {
  const user = [program.node, program.script, 'hooks', action, '--agent', agent, ...program.dataDirArgs]
  return { user: user.map(shellWord).join(' '), project: workspace ? [...user, '--scope', 'project', '--workspace', workspace].map(shellWord).join(' ') : null }
}

/** Settings of the agent's that stop every hook, whatever Retrace writes. */
function settingNotes(target: AgentTarget, env: NodeJS.ProcessEnv): string[] {
  if (target.agent === 'copilot') return []
  try {
    // A file that cannot be read is the hooks file's problem, said there.
    const { text, exists, file } = readConfig(target.hooksFile.user(env, ''))
    if (!exists) return []
    const settings = parseJsonc(text, file)
    if (target.agent === 'claude-code' && valueAt(settings, ['disableAllHooks']) === true) return [`${file} sets "disableAllHooks": true: Claude Code runs no hook.`]
    if (target.agent === 'gemini' && valueAt(settings, ['hooksConfig', 'enabled']) === false) return [`${file} sets hooksConfig.enabled to false: Gemini CLI runs no hook.`]
  } catch {
    return []
  }
  return []
}
