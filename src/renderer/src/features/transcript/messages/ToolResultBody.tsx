import type { Message } from '../../../../../shared/contract'

/** A tool's output as text; errors are labelled and tinted, never hidden. */
export function ToolResultBody({ result }: { result: Message }) {
  return (
    <div className={`tool-result${result.isError ? ' is-error' : ''}`} data-testid="tool-result" data-error={result.isError}>
      <div className="tool-section-label">{result.isError ? 'Error' : 'Result'}</div>
      <pre className="code-block">{result.content || '(empty)'}</pre>
    </div>
  )
}
