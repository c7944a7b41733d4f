import type { Message } from '../../../../../shared/contract'
import { withoutReminders } from '../internals'
import { Reminders } from './Reminders'

/** The prompt as typed: plain text, whitespace kept (Claude Code's `<system-reminder>` blocks apart). */
export function UserMessage({ message }: { message: Message }) {
  const { text, reminders } = withoutReminders(message.content)
  return (
    <div className="msg msg-user" data-testid="message-user">
      <div className="msg-label">You</div>
      <div className="plain-text">{text}</div>
      <Reminders reminders={reminders} />
    </div>
  )
}
