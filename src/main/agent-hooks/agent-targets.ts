import { dirname, join } from 'node:path'
import { claudeRoots } from '../sources/claude-code/discover'
import { codexRoots } from '../sources/codex/discover'
import { copilotRoots } from '../sources/copilot-cli/discover'
import { cursorHome } from '../sources/cursor/cli-discover'
import { geminiRoots } from '../sources/gemini-cli/discover'

export const HOOK_AGENTS = ['claude-code', 'gemini', 'codex', 'cursor', 'copilot'] as const
export type HookAgent = (typeof HOOK_AGENTS)[number]
export type HookScope = 'user' | 'project'

/** Where an agent keeps a kind of setting, per scope. */
type Locate = (env: NodeJS.ProcessEnv, workspace: string) => string

/**
 * How an agent lists its hooks under `hooks.<event>`: groups of commands (Claude Code's shape,
 * which Gemini CLI and Codex share), or flat entries naming the command in one field.
 */
export type HookShape = { kind: 'groups'; extra?: (phase: 'begin' | 'end') => Record<string, unknown> } | { kind: 'flat'; field: 'command' | 'bash'; extra?: Record<string, unknown> }

export interface AgentTarget {
  agent: HookAgent
  label: string
  /** The importer whose sessions these are (sources/registry.ts). */
  source: string
  /** The agent's own folder: `--agent all` connects only the agents found on this computer. */
  home: (env: NodeJS.ProcessEnv) => string
  /** The events that run `checkpoint begin` and `checkpoint end`. */
  events: { begin: string; end: string }
  shape: HookShape
  /** Top-level keys the hooks file needs besides `hooks` (Cursor's and Copilot's `version`). */
  fileKeys?: Record<string, unknown>
  hooksFile: Record<HookScope, Locate>
  /** The hooks file is Retrace's own (Copilot reads every `*.json` of its hooks folder): removed once empty. */
  ownsHooksFile?: boolean
  mcp: { format: 'json' | 'toml'; file: Record<HookScope, Locate>; entry: (server: { command: string; args: string[] }) => Record<string, unknown> }
  captures: string
  limits: string
}

const claudeHome = (env: NodeJS.ProcessEnv): string => claudeRoots(env)[0] as string
const codexHome = (env: NodeJS.ProcessEnv): string => codexRoots(env)[0] as string
const copilotHome = (env: NodeJS.ProcessEnv): string => dirname(copilotRoots(env)[0] as string)

export const AGENT_TARGETS: Record<HookAgent, AgentTarget> = {
  'claude-code': {
    agent: 'claude-code',
    label: 'Claude Code',
    source: 'claude-code',
    home: claudeHome,
    events: { begin: 'UserPromptSubmit', end: 'Stop' },
    shape: { kind: 'groups' },
    hooksFile: { user: (env) => join(claudeHome(env), 'settings.json'), project: (_env, ws) => join(ws, '.claude', 'settings.json') },
    mcp: {
      format: 'json',
      // User-scope MCP servers live in .claude.json: in CLAUDE_CONFIG_DIR when set, else in the home folder.
      file: { user: (env) => (env.CLAUDE_CONFIG_DIR?.trim() ? join(claudeHome(env), '.claude.json') : join(dirname(claudeHome(env)), '.claude.json')), project: (_env, ws) => join(ws, '.mcp.json') },
      entry: (server) => ({ type: 'stdio', ...server, env: {} })
    },
    captures: 'Every turn: UserPromptSubmit scans the workspace before Claude reads the prompt, Stop scans after it answers, so shell-made changes (rm, mv, formatters, generators) are journaled in that turn.',
    limits: "Stop does not run when you interrupt a turn (Esc): that turn's changes are folded into the next turn's starting point, not journaled. A sub-agent's changes land in its parent's turn."
  },
  gemini: {
    agent: 'gemini',
    label: 'Gemini CLI',
    source: 'gemini-cli',
    home: (env) => geminiRoots(env)[0] as string,
    events: { begin: 'BeforeAgent', end: 'AfterAgent' },
    shape: { kind: 'groups', extra: (phase) => ({ name: `retrace-checkpoint-${phase}` }) },
    hooksFile: { user: (env) => join(geminiRoots(env)[0] as string, 'settings.json'), project: (_env, ws) => join(ws, '.gemini', 'settings.json') },
    mcp: { format: 'json', file: { user: (env) => join(geminiRoots(env)[0] as string, 'settings.json'), project: (_env, ws) => join(ws, '.gemini', 'settings.json') }, entry: (server) => ({ ...server }) },
    captures: 'Every turn: BeforeAgent scans before the model plans, AfterAgent after its final answer.',
    limits: 'Hooks run by default from Gemini CLI 0.27 (earlier releases need them enabled in settings); a project\'s .gemini/settings.json hooks run only in a folder you trusted. A retry AfterAgent asks for ends the same turn again.'
  },
  codex: {
    agent: 'codex',
    label: 'Codex CLI',
    source: 'codex',
    home: codexHome,
    events: { begin: 'UserPromptSubmit', end: 'Stop' },
    shape: { kind: 'groups' },
    hooksFile: { user: (env) => join(codexHome(env), 'hooks.json'), project: (_env, ws) => join(ws, '.codex', 'hooks.json') },
    mcp: { format: 'toml', file: { user: (env) => join(codexHome(env), 'config.toml'), project: (_env, ws) => join(ws, '.codex', 'config.toml') }, entry: (server) => ({ ...server }) },
    captures: 'Every turn: UserPromptSubmit before the model reads the prompt, Stop when the turn ends.',
    limits: "Codex runs a new or changed hook only after you trust it: open /hooks in Codex once after installing. Hooks are on by default in current Codex (releases from 0.114 to spring 2026 needed [features] codex_hooks = true); project hooks (.codex/) load only in trusted projects. Codex's older notify program is not used: it runs only after a turn, and only one may be set."
  },
  cursor: {
    agent: 'cursor',
    label: 'Cursor',
    source: 'cursor',
    home: cursorHome,
    events: { begin: 'beforeSubmitPrompt', end: 'stop' },
    shape: { kind: 'flat', field: 'command' },
    fileKeys: { version: 1 },
    hooksFile: { user: (env) => join(cursorHome(env), 'hooks.json'), project: (_env, ws) => join(ws, '.cursor', 'hooks.json') },
    mcp: { format: 'json', file: { user: (env) => join(cursorHome(env), 'mcp.json'), project: (_env, ws) => join(ws, '.cursor', 'mcp.json') }, entry: (server) => ({ ...server }) },
    captures: "Every agent turn: beforeSubmitPrompt before the prompt is sent (the hook answers {\"continue\": true}), stop when the agent loop ends. The workspace is Cursor's first workspace root.",
    limits: "Cursor can also run Claude Code's hooks (its third-party hooks setting): with both installed, a turn is recorded twice. Tab completions are not turns."
  },
  copilot: {
    agent: 'copilot',
    label: 'Copilot CLI',
    source: 'copilot-cli',
    home: copilotHome,
    events: { begin: 'userPromptSubmitted', end: 'agentStop' },
    shape: { kind: 'flat', field: 'bash', extra: { type: 'command', timeoutSec: 60 } },
    fileKeys: { version: 1 },
    ownsHooksFile: true,
    hooksFile: { user: (env) => join(copilotHome(env), 'hooks', 'retrace.json'), project: (_env, ws) => join(ws, '.github', 'hooks', 'retrace.json') },
    mcp: { format: 'json', file: { user: (env) => join(copilotHome(env), 'mcp-config.json'), project: (_env, ws) => join(ws, '.github', 'mcp.json') }, entry: (server) => ({ type: 'local', ...server, tools: ['*'] }) },
    captures: 'Every turn: userPromptSubmitted when you send a prompt, agentStop when the agent finishes it.',
    limits: 'User hooks (~/.copilot/hooks) need Copilot CLI 0.0.422 or later; repository hooks (.github/hooks) load only in folders you trusted, and in prompt mode (-p) only with GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS set.'
  }
}

export function isHookAgent(value: string): value is HookAgent {
  return (HOOK_AGENTS as readonly string[]).includes(value)
}
