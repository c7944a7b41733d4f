import { z } from 'zod'

/**
 * The agents whose histories Retrace imports, by the name `--source` and the contract use.
 * Adding a source: its name here, its label in source-labels.ts, its adapter in
 * src/main/sources/registry.ts and what it reads in source-info.ts.
 */
export const IMPORT_SOURCES = ['claude-code', 'codex', 'langgraph', 'cianaparrot', 'headless-agent', 'code-buddy', 'y-agent', 'cursor', 'aider', 'copilot-cli', 'cline', 'gemini-cli', 'opencode'] as const

export type ImportSource = (typeof IMPORT_SOURCES)[number]

export const ImportSourceSchema = z.enum(IMPORT_SOURCES)

export function isImportSource(name: string): name is ImportSource {
  return (IMPORT_SOURCES as readonly string[]).includes(name)
}

/**
 * Sources whose format never carries file content (docs/reliability.md R44): nothing their agent
 * changed can be journaled from its history, so their sessions say "this agent keeps no file
 * content" rather than "0 of N recorded".
 */
// LangGraph checkpoints keep a tool call's arguments and answer, never a file (langgraph/file-tools.ts);
// Code Buddy's session files keep a call's tool name only (code-buddy/).
export const SOURCES_KEEPING_NO_FILE_CONTENT: readonly ImportSource[] = ['langgraph', 'code-buddy']

export function keepsNoFileContent(source: string): boolean {
  return (SOURCES_KEEPING_NO_FILE_CONTENT as readonly string[]).includes(source)
}
