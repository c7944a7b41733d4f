import type { Message } from '../../../../../shared/contract'

/** The prompt as typed: plain text, whitespace kept. */
export function UserMessage({ message }: { message: Message }) {
  return (
    <div className="msg msg-user" data-testid="message-user">
      <div className="msg-label">You</div>
      <div className="plain-text">{message.content}</div>
    </div>
  )
}
