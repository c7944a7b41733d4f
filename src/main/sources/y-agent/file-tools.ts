import type { FileTools } from '../adapter'

/**
 * y-agent's built-in tools (gorgiaxx/y-agent, crates/y-tools/src/builtin/*.rs: `ToolName::from_string`),
 * under both namings its builds used: the snake_case of March 2026 (the build whose store is
 * fixtures/y-agent/gorgiaxx-y-agent-5049ba5f: file_write, file_read, file_list, file_search,
 * shell_exec, tool_search) and the PascalCase of later builds. y-agent journals what its file
 * tools overwrite (file_journal_entries); a write tool's call is rewindable through that entry.
 * Task / AgentSwarm start sub-agents, whose sessions hold their own calls; Plan, Loop, Workflow*,
 * Schedule* and the Agent/Tool/Skill management tools change y-agent's own store, not files.
 */
export const fileTools: FileTools = {
  writes: ['FileWrite', 'FileEdit', 'file_write'],
  reads: [
    'FileRead',
    'Glob',
    'Grep',
    'file_read',
    'file_list',
    'file_search',
    'ToolSearch',
    'tool_search',
    'WebFetch',
    'KnowledgeSearch',
    'AskUser',
    'Plan',
    'Loop',
    'Task',
    'AgentSwarm',
    'Browser',
    'LspDefinition',
    'LspReferences',
    'LspHover',
    'LspDocumentSymbols',
    'LspWorkspaceSymbols',
    'LspDiagnostics'
  ],
  shell: ['ShellExec', 'shell_exec']
}
