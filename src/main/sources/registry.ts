import type { SourceAdapter, SourceName } from './adapter'
import { claudeRoots, discoverClaudeFiles, discoverClaudeWorkspace } from './claude-code/discover'
import { createClaudeCodeParser } from './claude-code/parser'
import { claudeWatchFolders } from './claude-code/watch-folders'
import { CLAUDE_CODE_FILE_TOOLS } from './claude-code/file-tools'
import { codexRoots, discoverCodexFiles, discoverCodexWorkspace } from './codex/discover'
import { segmentsOf } from './codex/rollout-segments'
import { createCodexParser } from './codex/parser'
import { codexWatchFolders } from './codex/watch-folders'
import { CODEX_FILE_TOOLS } from './codex/file-tools'
import { cianaParrotAdapter } from './cianaparrot/adapter'
import { headlessAgentAdapter } from './headless-agent/adapter'
import { langGraphAdapter } from './langgraph/adapter'
import { codeBuddyAdapter } from './code-buddy/adapter'
import { yAgentAdapter } from './y-agent/adapter'
import { cursorAdapter } from './cursor/adapter'
import { aiderAdapter } from './aider/adapter'
import { copilotCliAdapter } from './copilot-cli/adapter'
import { clineAdapter } from './cline/adapter'
import { geminiCliAdapter } from './gemini-cli/adapter'
import { openCodeAdapter } from './opencode/adapter'

const claudeCode: SourceAdapter = {
  name: 'claude-code',
  label: 'Claude Code',
  roots: claudeRoots,
  watchFolders: claudeWatchFolders,
  discoverAll: discoverClaudeFiles,
  discover: discoverClaudeWorkspace,
  createParser: createClaudeCodeParser,
  fileTools: CLAUDE_CODE_FILE_TOOLS
}

const codex: SourceAdapter = {
  name: 'codex',
  label: 'Codex CLI',
  roots: codexRoots,
  watchFolders: codexWatchFolders,
  discoverAll: discoverCodexFiles,
  discover: discoverCodexWorkspace,
  createParser: createCodexParser,
  segments: segmentsOf,
  fileTools: CODEX_FILE_TOOLS
}

/** Every source Retrace imports, in the order they are tried. */
export const SOURCE_ADAPTERS: readonly SourceAdapter[] = [claudeCode, codex, cianaParrotAdapter, langGraphAdapter, headlessAgentAdapter, codeBuddyAdapter, yAgentAdapter, cursorAdapter, aiderAdapter, copilotCliAdapter, clineAdapter, geminiCliAdapter, openCodeAdapter]

export const SOURCE_NAMES = SOURCE_ADAPTERS.map((adapter) => adapter.name)

export function adaptersFor(only?: SourceName | SourceName[]): SourceAdapter[] {
  const wanted = only === undefined ? null : new Set(Array.isArray(only) ? only : [only])
  return SOURCE_ADAPTERS.filter((adapter) => !wanted || wanted.has(adapter.name))
}
