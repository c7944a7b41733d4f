import type { Message } from '../../../../../shared/contract'
import { plural } from '../../../lib/format'
import { formatToolInput } from '../tool-summary'
import { limitLines, type ToolFileEdit, type ToolView } from '../tool-view'

/** Lines shown per tool call before the rest is folded away (the raw input keeps all of it). */
const MAX_LINES = 400
const SIGN = { add: '+', del: '−', context: ' ' } as const
const SPOKEN = { add: 'added', del: 'removed', context: '' } as const
const OP_LABEL: Record<ToolFileEdit['op'], string | null> = { edit: null, write: 'whole file written', create: 'new file', delete: 'deleted' }

/** A file-editing call as diffs, one block per file, with its raw input a click away. */
export function ToolEdits({ files, input }: { files: ToolFileEdit[]; input: Message['toolInput'] }) {
  return (
    <div className="tool-edits" data-testid="tool-edits">
      {limitLines(files, MAX_LINES).map((file, index) => (
        <FileEdit key={`${file.path}:${index}`} file={file} />
      ))}
      <details className="tool-raw">
        <summary>Input as the agent wrote it</summary>
        <pre className="code-block" data-testid="tool-call-input">
          {formatToolInput(input)}
        </pre>
      </details>
    </div>
  )
}

function FileEdit({ file }: { file: ToolFileEdit & { hidden: number } }) {
  const label = OP_LABEL[file.op]
  return (
    <section className="tool-edit" data-testid="tool-edit" data-path={file.path} data-op={file.op} aria-label={`Changes to ${file.path}`}>
      <header className="tool-edit-head">
        <span className="mono tool-edit-path">
          {file.path}
          {file.movedTo ? ` → ${file.movedTo}` : ''}
        </span>
        {label ? <span className="badge badge-muted">{label}</span> : null}
        <span className="tool-edit-counts mono">
          {file.added > 0 ? <span className="count-add">+{file.added}</span> : null} {file.removed > 0 ? <span className="count-del">−{file.removed}</span> : null}
        </span>
      </header>
      {file.hunks.length > 0 ? (
        <div className="tool-edit-lines mono">
          {file.hunks.map((hunk, h) => (
            <div key={h} className="tool-hunk">
              {hunk.heading !== null || h > 0 ? <div className="diff-hunk">{hunk.heading ? `@@ ${hunk.heading}` : '⋯'}</div> : null}
              {hunk.lines.map((line, l) => (
                  <div key={l} className={`diff-line tool-diff-line diff-${line.kind}`} data-kind={line.kind}>
                    <span className="diff-sign">
                    <span aria-hidden="true">{SIGN[line.kind]}</span>
                    {SPOKEN[line.kind] ? <span className="visually-hidden">{SPOKEN[line.kind]}</span> : null}
                  </span>
                    <code className="line-code">{line.text}</code>
                  </div>
              ))}
            </div>
          ))}
          {file.hidden > 0 ? <p className="muted tool-edit-more">{plural(file.hidden, 'more line')} in the input below.</p> : null}
        </div>
      ) : null}
    </section>
  )
}

/** A shell call as a terminal: the command after a prompt, then what it printed. */
export function ToolTerminal({ view, result }: { view: Extract<ToolView, { kind: 'terminal' }>; result: Message | null }) {
  return (
    <div className="tool-terminal" data-testid="tool-terminal">
      {view.cwd ? <div className="tool-terminal-cwd mono">{view.cwd}</div> : null}
      <pre className="tool-terminal-command" data-testid="tool-call-input">
        <span className="tool-terminal-prompt" aria-hidden="true">
          ${' '}
        </span>
        {view.command}
      </pre>
      {result ? (
        <pre className={`tool-terminal-output${result.isError ? ' is-error' : ''}`} data-testid="tool-result" data-error={result.isError}>
          {result.content || '(no output)'}
        </pre>
      ) : null}
    </div>
  )
}
