import { homedir } from 'node:os'
import type { SourceAdapter, SourceName } from './adapter'

/**
 * Where each source looks, in words, for the window and the CLI: its documented default, the
 * environment variable that overrides it, and what it finds inside an opened folder. Every
 * source also reads any folder added to a workspace as its history.
 */
const WHERE: Record<SourceName, string> = {
  'claude-code': 'sessions whose recorded working directory is the workspace, under $CLAUDE_CONFIG_DIR or ~/.claude (projects/)',
  codex: 'rollouts whose session_meta.cwd is the workspace, under $CODEX_HOME or ~/.codex (sessions/ and archived_sessions/, plain .jsonl or compressed .jsonl.zst)',
  cianaparrot: 'a deployment folder opened as the workspace (data/checkpoints.db with CianaParrot files beside it); more in $RETRACE_CIANAPARROT_DIR',
  'code-buddy': 'sessions whose working directory is in the workspace, or all of them for the home opened as the workspace, under $CODEBUDDY_HOME or ~/.codebuddy (sessions/, branches/); ExportedSession files at the workspace top level',
  'headless-agent': 'the agent home opened as the workspace (sessions.db beside memory.json or checkpoints/), under $AGENT_HOME or ~/.agent',
  'y-agent': 'the data folder opened as the workspace (all sessions; read-only for rewinds), or a project whose files its sessions touched, under $Y_AGENT_DB_PATH, $Y_AGENT_HOME or ~/.local/state/y-agent/data',
  langgraph: 'a checkpoint database kept in the workspace (checkpoints.sqlite, checkpoints.db, data/checkpoints.db…); more in $RETRACE_LANGGRAPH_DB',
  cursor: 'conversations of the Cursor windows opened on the workspace folder (workspaceStorage/<hash>/workspace.json), read from their state.vscdb and globalStorage/state.vscdb under $VSCODE_APPDATA/Cursor/User, else %APPDATA%, ~/Library/Application Support or $XDG_CONFIG_HOME (~/.config); and in ~/.cursor (%USERPROFILE%\\.cursor) the agent transcripts of the workspace (projects/<slug of its path>/agent-transcripts/) and the Cursor CLI chats (chats/<md5 of its path>/<id>/store.db)',
  aider: 'the chat history kept in the workspace folder (.aider.chat.history.md), with prompt times from .aider.input.history; another file named by $AIDER_CHAT_HISTORY_FILE or chat-history-file: in the workspace\'s or ~/.aider.conf.yml',
  'copilot-cli': 'sessions whose workspace.yaml cwd (or session.start cwd) is in the workspace, under $COPILOT_HOME or ~/.copilot (session-state/<id>/events.jsonl with its rewind-snapshots/ and rewind-file-snapshots/ backups, older <id>.jsonl; also $XDG_STATE_HOME/.copilot when not yet moved)',
  cline: 'tasks whose environment details name a working directory in the workspace, under tasks/ of the Cline, Roo Code and Kilo Code global storage of VS Code, Insiders, VSCodium, Cursor and Windsurf (and ~/.vscode-server), and $CLINE_DATA_DIR, $CLINE_DIR/data or ~/.cline/data (tasks/, and sessions/ of Cline 4); $RETRACE_CLINE_DIRS replaces them. Checkpoints are read (never written) from the shadow repositories under checkpoints/ and tasks/<id>/checkpoints/, and from refs/cline/checkpoints in the workspace\'s own repository (Cline 4); older Roo Code and Kilo Code sub-tasks are linked through VS Code\'s state.vscdb beside the storage',
  'gemini-cli': 'chat recordings of the project folder named by the workspace (tmp/<sha256 of its path>/ or the slug projects.json gives it) under $GEMINI_CLI_HOME/.gemini or ~/.gemini (tmp/<project>/chats/session-*.json, session-*.jsonl, sub-agents in chats/<session>/; the prompts of sessions without a recording from tmp/<project>/logs.json)',
  opencode: 'sessions whose directory is in the workspace, or all of them for the data folder opened as the workspace, in opencode.db (current versions) or storage/ (older ones) under $XDG_DATA_HOME/opencode or ~/.local/share/opencode; the folder of $OPENCODE_DB too. Also the Kilo CLI\'s sessions (titled "… (Kilo CLI)"): kilo.db or storage/ under $XDG_DATA_HOME/kilo or ~/.local/share/kilo, and the folder of $KILO_DB'
}

export function describeSource(adapter: SourceAdapter, env: NodeJS.ProcessEnv): { name: string; label: string; looksIn: string; seenOnRealFiles: boolean } {
  const roots = adapter.roots(env).map((root) => root.replace(homedir(), '~'))
  const where = WHERE[adapter.name]
  return { name: adapter.name, label: adapter.label, looksIn: roots.length > 0 ? `${where} — now: ${roots.join(', ')}` : where, seenOnRealFiles: adapter.fromWriterSourceOnly !== true }
}
