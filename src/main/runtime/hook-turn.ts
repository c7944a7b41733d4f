import { resolve } from 'node:path'
import { AGENT_TARGETS, HOOK_AGENTS, isHookAgent } from '../agent-hooks/agent-targets'
import { appendHookRun, type HookRun } from '../agent-hooks/hook-log'
import { hookAnswer, hookTurn } from '../agent-hooks/hook-payload'
import type { HandlerContext } from '../handlers/context'
import { runCheckpoint, type CheckpointResult } from './checkpoint'

/** One run of an agent's hook: what it read, and where it ran. */
export interface HookTurnRequest {
  agent: string
  phase: string
  /** The agent's JSON from stdin (undefined or null when none came, or it did not parse). */
  payload: unknown
  /** The hook's working folder: a relative workspace folder is taken from here. */
  cwd: string
  /** The hook's environment, where Claude Code and Gemini CLI name the project folder. */
  env: NodeJS.ProcessEnv
}

/** Run a workspace's captures one after the other (the app serves several agents at once). */
export type Serialize = (workspace: string, capture: () => Promise<CheckpointResult>) => Promise<CheckpointResult>

/**
 * `retrace checkpoint begin|end --hook AGENT`, wherever it runs: in the hook's own process, or in
 * the app the hook handed its turn to (hook-handoff-server.ts). A hook must never break the
 * agent, so nothing is thrown: what happened — the turn, or the error — is appended to the hook
 * log in the data folder, where `retrace hooks status` and the Connect agents panel read it.
 * Returns what the agent expects on stdout (Cursor's answer; nothing for the others).
 */
export async function captureHookTurn(
  request: HookTurnRequest,
  options: { dataDir: string; open: () => Promise<HandlerContext>; via: 'app' | 'hook'; serialize?: Serialize }
): Promise<{ run: HookRun; answer: string | null }> {
  const started = Date.now()
  const { agent } = request
  const phase = request.phase === 'end' ? 'end' : 'begin'
  const run: HookRun = { at: started, agent, phase, workspace: null, agentSession: null, sessionId: null, turn: null, changes: null, ms: 0, error: null, via: options.via, pid: process.pid }
  try {
    if (!isHookAgent(agent)) throw new Error(`Unknown --hook agent "${agent}": one of ${HOOK_AGENTS.join(', ')}.`)
    if (request.phase !== 'begin' && request.phase !== 'end') throw new Error(`Use "checkpoint begin" or "checkpoint end", not "${request.phase}".`)
    const label = AGENT_TARGETS[agent].label
    const turn = hookTurn(agent, request.payload, request.env)
    run.workspace = turn.workspace ?? null
    run.agentSession = turn.session ?? null
    const { workspace, session } = turn
    if (!workspace) throw new Error(`${label}'s hook input named no workspace folder.`)
    if (!session) throw new Error(`${label}'s hook input named no session.`)
    const folder = resolve(request.cwd, workspace)
    const capture = async () => runCheckpoint(await options.open(), { phase, workspace: folder, session, hook: turn.prompt ? { prompt: turn.prompt } : {} })
    const result = await (options.serialize ? options.serialize(folder, capture) : capture())
    run.sessionId = result.sessionId
    run.turn = result.turn
    run.changes = result.phase === 'end' ? result.changes : null
    if (result.skipped > 0) run.untracked = result.skipped
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error)
  }
  run.ms = Date.now() - started
  appendHookRun(options.dataDir, run)
  return { run, answer: isHookAgent(agent) ? hookAnswer(agent, phase) : null }
}
