import { useMemo } from 'react'
import type { ChildRef, Message } from '../../../../../shared/contract'
import { interactiveCard } from '../../../../../shared/interactive-tools'
import { useDisclosure } from '../../../ui/disclosure'
import { SubAgentLinks } from '../ChildLinks'
import { formatToolInput, summarizeToolInput } from '../tool-summary'
import { toolView, type ToolView } from '../tool-view'
import { InteractiveCallBlock } from './InteractiveCallBlock'
import { ToolEdits, ToolTerminal } from './ToolCallView'
import { ToolResultBody } from './ToolResultBody'

interface Props {
  call: Message
  result: Message | null
  /** More transcript pages exist, so a missing result may simply not be loaded yet. */
  moreToLoad: boolean
  focused: boolean
  /** The sub-agent sessions this call started (a Task / Agent call), linked from its line. */
  subAgents?: readonly ChildRef[]
  /** The session's folder: paths inside it are shown relative to it. */
  root: string | null
}

/**
 * A tool call, collapsed to name + one line; opened, a file edit as its diff, a shell command
 * as a terminal with its output, anything else as its JSON input and paired result. Claude
 * Code's questions, plans and checklists are cards of their own (InteractiveCallBlock).
 */
export function ToolCallBlock({ call, result, moreToLoad, focused, subAgents = [], root }: Props) {
  const view = useMemo(() => toolView(call.toolName, call.toolInput, root), [call.toolName, call.toolInput, root])
  const card = useMemo(() => interactiveCard(call.toolName, call.toolInput, result), [call.toolName, call.toolInput, result])
  const disclosure = useDisclosure(`tool-${call.id}`, focused)
  if (card) return <InteractiveCallBlock call={call} card={card} moreToLoad={moreToLoad} focused={focused} />
  const name = call.toolName ?? 'tool'
  const status = result === null ? (moreToLoad ? 'pending' : 'missing') : result.isError ? 'error' : 'ok'

  return (
    <details className={`msg tool-call status-${status}`} data-testid="tool-call" {...disclosure}>
      <summary>
        <span className="tool-name">{name}</span>
        <span className="tool-summary mono">{view ? summarizeView(view) : summarizeToolInput(call.toolInput)}</span>
        {status === 'error' ? <span className="badge badge-error">error</span> : null}
        {status === 'missing' ? <span className="badge badge-muted">no result</span> : null}
        {subAgents.length > 0 ? <SubAgentLinks subAgents={subAgents} /> : null}
      </summary>
      <div className="tool-body">
        {view?.kind === 'edits' ? (
          <ToolEdits files={view.files} input={call.toolInput} />
        ) : view?.kind === 'terminal' ? (
          <ToolTerminal view={view} result={result} />
        ) : (
          <>
            <div className="tool-section-label">Input</div>
            <pre className="code-block" data-testid="tool-call-input">
              {formatToolInput(call.toolInput)}
            </pre>
          </>
        )}
        {view?.kind === 'terminal' && result ? null : result ? (
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

/** The collapsed line of a call shown as a diff or a terminal: its files (relative) or its command. */
function summarizeView(view: NonNullable<ToolView>): string {
  if (view.kind === 'terminal') return summarizeToolInput({ command: view.command })
  return summarizeToolInput({ path: view.files.map((file) => file.path).join(', ') })
}
