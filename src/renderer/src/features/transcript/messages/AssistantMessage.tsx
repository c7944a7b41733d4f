import type { Message } from '../../../../../shared/contract'
import { Markdown } from '../markdown/Markdown'
import { UsageLine } from './UsageLine'

export function AssistantMessage({ message }: { message: Message }) {
  return (
    <div className="msg msg-assistant" data-testid="message-assistant">
      <div className="msg-label">
        Assistant{message.model ? <span className="muted"> · {message.model}</span> : null}
      </div>
      <Markdown text={message.content} />
      {message.usage ? <UsageLine usage={message.usage} /> : null}
    </div>
  )
}
