import type { Message } from '../../../../../shared/contract'

export function SystemLine({ message }: { message: Message }) {
  return (
    <div className="msg msg-system" role="note">
      <span className="system-tag">system</span> <span className="plain-text">{message.content}</span>
    </div>
  )
}
