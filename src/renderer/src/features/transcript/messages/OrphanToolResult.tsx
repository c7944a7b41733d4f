import type { Message } from '../../../../../shared/contract'
import { useDisclosure } from '../../../ui/disclosure'
import { ToolResultBody } from './ToolResultBody'

/** A tool result whose call is not in this transcript (e.g. compacted away). */
export function OrphanToolResult({ message, focused }: { message: Message; focused: boolean }) {
  const disclosure = useDisclosure(`result-${message.id}`, focused)
  return (
    <details className={`msg tool-call orphan${message.isError ? ' status-error' : ''}`} {...disclosure}>
      <summary>
        <span className="tool-name">{message.toolName ?? 'tool'}</span>
        <span className="muted">result of a call not shown here</span>
      </summary>
      <div className="tool-body">
        <ToolResultBody result={message} />
      </div>
    </details>
  )
}
