import type { MessageRole } from '../../shared/contract'

/** How a message's role is named where a transcript is written out as text (the CLI, exports). */
export const ROLE_LABELS: Record<MessageRole, string> = {
  user: 'User',
  assistant: 'Assistant',
  reasoning: 'Reasoning',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  system: 'System',
  compaction_summary: 'Compaction summary'
}
