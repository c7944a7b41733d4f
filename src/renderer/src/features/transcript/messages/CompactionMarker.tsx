import type { Message } from '../../../../../shared/contract'
import { useDisclosure } from '../../../ui/disclosure'

/** Where the agent compacted its context: from here on the model saw this summary, not the turns before. */
export function CompactionMarker({ message, focused, command = null }: { message: Message; focused: boolean; command?: string | null }) {
  const disclosure = useDisclosure(`compaction-${message.id}`, focused)
  return (
    <div className="compaction" data-testid="compaction" role="note">
      <div className="compaction-line">
        <span aria-hidden="true">⇣</span> Context compacted — earlier messages are summarized for the model
        {command ? (
          <span className="compaction-command" data-testid="compaction-command">
            {' '}
            · by <span className="mono">{command}</span>
          </span>
        ) : null}
      </div>
      <details className="compaction-summary" {...disclosure}>
        <summary>Summary the model received</summary>
        <div className="plain-text">{message.content}</div>
      </details>
    </div>
  )
}
