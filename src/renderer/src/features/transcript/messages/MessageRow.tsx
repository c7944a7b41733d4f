import { memo } from 'react'
import type { ChildRef, Message } from '../../../../../shared/contract'
import { AssistantMessage } from './AssistantMessage'
import { CompactionMarker } from './CompactionMarker'
import { OrphanToolResult } from './OrphanToolResult'
import { ReasoningBlock } from './ReasoningBlock'
import { SystemLine } from './SystemLine'
import { ToolCallBlock } from './ToolCallBlock'
import { UserMessage } from './UserMessage'

interface Props {
  message: Message
  result: Message | null
  moreToLoad: boolean
  /** A search hit points at this message (or at its folded result). */
  focused: boolean
  /** Sub-agent sessions a tool call started (linked from the call). */
  subAgents: readonly ChildRef[]
  /** A compaction marker's `/compact …` command (rows.ts folds it in). */
  compactCommand?: string | null
  /** The session's folder, for paths shown relative to it. */
  root: string | null
}

/** One transcript row, rendered by role. */
export const MessageRow = memo(function MessageRow({ message, result, moreToLoad, focused, subAgents, compactCommand = null, root }: Props) {
  switch (message.role) {
    case 'user':
      return <UserMessage message={message} />
    case 'assistant':
      return <AssistantMessage message={message} />
    case 'reasoning':
      return <ReasoningBlock message={message} focused={focused} />
    case 'tool_call':
      return <ToolCallBlock call={message} result={result} moreToLoad={moreToLoad} focused={focused} subAgents={subAgents} root={root} />
    case 'tool_result':
      return <OrphanToolResult message={message} focused={focused} />
    case 'compaction_summary':
      return <CompactionMarker message={message} focused={focused} command={compactCommand} />
    case 'system':
      return <SystemLine message={message} />
  }
})
