import type { Message } from '../../../../../shared/contract'
import { withoutReminders } from '../internals'
import { Reminders } from './Reminders'

/** A tool's output as text; errors are labelled and tinted, never hidden. Claude Code's `<system-reminder>` blocks are set apart. */
export function ToolResultBody({ result }: { result: Message }) {
  const { text, reminders } = withoutReminders(result.content)
  return (
    <div className={`tool-result${result.isError ? ' is-error' : ''}`} data-testid="tool-result" data-error={result.isError}>
      <div className="tool-section-label">{result.isError ? 'Error' : 'Result'}</div>
      <pre className="code-block">{text || '(empty)'}</pre>
      <Reminders reminders={reminders} />
    </div>
  )
}
