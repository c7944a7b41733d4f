import type { Message } from '../../../../../shared/contract'
import { useDisclosure } from '../../../ui/disclosure'

/** The model's thinking: collapsed, since it is long and rarely what a reader wants first. */
export function ReasoningBlock({ message, focused }: { message: Message; focused: boolean }) {
  const disclosure = useDisclosure(`reasoning-${message.id}`, focused)
  return (
    <details className="msg msg-reasoning" data-testid="reasoning" {...disclosure}>
      <summary>Reasoning</summary>
      <div className="plain-text">{message.content}</div>
    </details>
  )
}
