import type { FileTools } from '../adapter'
import { WRITE_TOOLS } from './call-edits'

/**
 * Claude Code's tools by the names its transcripts give them (its tool list: the SDK's
 * `sdk-tools.d.ts` and the `deferred_tools_delta` attachments of 2.1.x files). Write / Edit /
 * MultiEdit / NotebookEdit change files (call-edits.ts, tool-results.ts); Bash runs commands.
 * The rest read, ask, plan or start agents (whose own files are imported as sessions).
 */
export const CLAUDE_CODE_FILE_TOOLS: FileTools = {
  writes: WRITE_TOOLS,
  reads: [
    'Read', 'Glob', 'Grep', 'LS', 'NotebookRead', 'WebFetch', 'WebSearch', 'ToolSearch', 'LSP',
    'TodoWrite', 'TodoRead', 'Task', 'Agent', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskUpdate', 'TaskOutput', 'TaskStop',
    'SendMessage', 'TeamCreate', 'TeamDelete', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'Skill', 'SlashCommand',
    'BashOutput', 'KillShell', 'KillBash', 'Monitor', 'ListMcpResourcesTool', 'ReadMcpResourceTool', 'CronCreate', 'CronDelete',
    'CronList', 'PushNotification', 'RemoteTrigger', 'Workflow'
  ],
  shell: ['Bash']
}
