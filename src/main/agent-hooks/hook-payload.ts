import type { HookAgent } from './agent-targets'

/** What a checkpoint needs from an agent's hook input, whatever the agent calls it. */
export interface HookTurn {
  session?: string
  workspace?: string
  prompt?: string
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined)

/**
 * Read one agent's hook input (the JSON it pipes on stdin). Claude Code, Gemini CLI and Codex
 * send `session_id`, `cwd`, `prompt`; Copilot CLI `sessionId`, `cwd`, `prompt` (snake_case
 * under its VS Code-style event names); Cursor `conversation_id`, `workspace_roots`, `prompt`.
 * Claude Code and Gemini CLI also name the project folder in the environment, which stays put
 * when the agent's shell moves into a subfolder between the two hooks of a turn.
 */
export function hookTurn(agent: HookAgent, input: unknown, env: NodeJS.ProcessEnv): HookTurn {
  const fields = input && typeof input === 'object' ? (input as Record<string, unknown>) : {}
  const roots = Array.isArray(fields.workspace_roots) ? fields.workspace_roots : []
  const projectDir = agent === 'claude-code' ? env.CLAUDE_PROJECT_DIR : agent === 'gemini' ? (env.GEMINI_PROJECT_DIR ?? env.CLAUDE_PROJECT_DIR) : undefined
  const session = agent === 'cursor' ? text(fields.conversation_id) : agent === 'copilot' ? (text(fields.sessionId) ?? text(fields.session_id)) : text(fields.session_id)
  const workspace = text(projectDir) ?? (agent === 'cursor' ? (text(roots[0]) ?? text(fields.cwd)) : text(fields.cwd))
  const prompt = text(fields.prompt)
  return { ...(session ? { session } : {}), ...(workspace ? { workspace } : {}), ...(prompt ? { prompt } : {}) }
}

/** What the agent expects on stdout from the hook (nothing, for all but Cursor). */
export function hookAnswer(agent: HookAgent, phase: 'begin' | 'end'): string | null {
  if (agent !== 'cursor') return null
  // Cursor reads beforeSubmitPrompt's answer to decide whether the prompt goes on.
  return phase === 'begin' ? '{"continue":true}' : '{}'
}
