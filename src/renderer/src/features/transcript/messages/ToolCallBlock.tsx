import type { ChildRef, Message } from '../../../../../shared/contract'
import { useDisclosure } from '../../../ui/disclosure'
import { SubAgentLinks } from '../ChildLinks'
import { formatToolInput, summarizeToolInput } from '../tool-summary'
import { ToolResultBody } from './ToolResultBody'

interface Props {
  call: Message
  result: Message | null
  /** More transcript pages exist, so a missing result may simply not be loaded yet. */
  moreToLoad: boolean
  focused: boolean
  /** The sub-agent sessions this call started (a Task / Agent call), linked from its line. */
  subAgents?: readonly ChildRef[]
}

/** A tool call, collapsed to name + one line; opened, its JSON input and paired result. */
export function ToolCallBlock({ call, result, moreToLoad, focused, subAgents = [] }: Props) {
  const disclosure = useDisclosure(`tool-${call.id}`, focused)
  const name = call.toolName ?? 'tool'
  const status = result === null ? (moreToLoad ? 'pending' : 'missing') : result.isError ? 'error' : 'ok'

  return (
    <details className={`msg tool-call status-${status}`} data-testid="tool-call" {...disclosure}>
      <summary>
        <span className="tool-name">{name}</span>
        <span className="tool-summary mono">{summarizeToolInput(call.toolInput)}</span>
        {status === 'error' ? <span className="badge badge-error">error</span> : null}
        {status === 'missing' ? <span className="badge badge-muted">no result</span> : null}
        {subAgents.length > 0 ? <SubAgentLinks subAgents={subAgents} /> : null}
      </summary>
      <div className="tool-body">
        <div className="tool-section-label">Input</div>
        <pre className="code-block" data-testid="tool-call-input">
          {formatToolInput(call.toolInput)}
        </pre>
        {result ? (
          <ToolResultBody result={result} />
        ) : (
          <p className="muted tool-no-result">
            {moreToLoad ? 'The result is further down; scroll to load it.' : 'No result was recorded for this call.'}
          </p>
        )}
      </div>
    </details>
  )
}
