import { memo } from 'react'
import type { Message } from '../../../../../shared/contract'
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
  /** The session's folder, for paths shown relative to it. */
  root: string | null
}

/** One transcript row, rendered by role. */
export const MessageRow = memo(function MessageRow({ message, result, moreToLoad, focused, root }: Props) {
  switch (message.role) {
    case 'user':
      return <UserMessage message={message} />
    case 'assistant':
      return <AssistantMessage message={message} />
    case 'reasoning':
      return <ReasoningBlock message={message} focused={focused} />
    case 'tool_call':
      return <ToolCallBlock call={message} result={result} moreToLoad={moreToLoad} focused={focused} root={root} />
    case 'tool_result':
      return <OrphanToolResult message={message} focused={focused} />
    case 'compaction_summary':
      return <CompactionMarker message={message} focused={focused} />
    case 'system':
      return <SystemLine message={message} />
  }
})
