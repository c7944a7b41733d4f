import type { Message } from '../../../../../shared/contract'
import { useDisclosure } from '../../../ui/disclosure'

/** Where the agent compacted its context: from here on the model saw this summary, not the turns before. */
export function CompactionMarker({ message, focused }: { message: Message; focused: boolean }) {
  const disclosure = useDisclosure(`compaction-${message.id}`, focused)
  return (
    <div className="compaction" data-testid="compaction" role="note">
      <div className="compaction-line">
        <span aria-hidden="true">⇣</span> Context compacted — earlier messages are summarized for the model
      </div>
      <details className="compaction-summary" {...disclosure}>
        <summary>Summary the model received</summary>
        <div className="plain-text">{message.content}</div>
      </details>
    </div>
  )
}
