import type { FileTools } from '../adapter'

/**
 * Claude Code's tools by the names its transcripts give them (its tool list, the fixtures'
 * transcripts). `reads` holds every tool that changes no file: lookups, plans, questions,
 * sub-agents (their own files account for their edits), background shells' output.
 */
export const fileTools: FileTools = {
  writes: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'],
  reads: [
    'Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'Task', 'Agent',
    'ExitPlanMode', 'EnterPlanMode', 'AskUserQuestion', 'BashOutput', 'KillShell', 'KillBash', 'Skill', 'SlashCommand',
    'StructuredOutput', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet',
    'TaskOutput', 'TaskStop', 'SendMessage', 'TeamCreate', 'TeamDelete', 'Workflow', 'ToolSearch'
  ],
  shell: ['Bash', 'PowerShell']
}
