import { useId, useState, type FormEvent } from 'react'
import { errorMessage } from '../../lib/errors'
import { FolderBrowser } from './FolderBrowser'
import { useAppInfo } from '../../state/app-info'
import { useOpenActions } from './use-open-actions'

/**
 * Ways to open a workspace: type a path (both bindings), the native dialog (desktop), or
 * browse the serving machine's folders (web) — and the demo. Any failure shows inline.
 */
export function OpenFolder() {
  const info = useAppInfo()
  const actions = useOpenActions()
  const [path, setPath] = useState('')
  const inputId = useId()
  const native = info.data?.nativeFolderDialog === true

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault()
    const trimmed = path.trim()
    if (trimmed) actions.openPath(trimmed)
  }

  return (
    <div className="open-folder">
      <form className="path-form" onSubmit={submit}>
        <label htmlFor={inputId} className="field-label">
          Folder path{info.data?.binding === 'web' ? ' on the server' : ''}
        </label>
        <div className="path-row">
          <input
            id={inputId}
            className="input mono"
            data-testid="workspace-path-input"
            value={path}
            onChange={(event) => setPath(event.target.value)}
            placeholder="/home/you/projects/app"
            spellCheck={false}
            autoComplete="off"
          />
          <button type="submit" className="button primary" data-testid="open-path" disabled={actions.pending || !path.trim()}>
            Open
          </button>
          {native ? (
            <button type="button" className="button" onClick={actions.pickFolder} disabled={actions.pending}>
              Choose folder…
            </button>
          ) : null}
        </div>
      </form>

      {actions.error ? (
        <p className="open-error" data-testid="open-error" role="alert">
          {errorMessage(actions.error)}
        </p>
      ) : null}

      {info.data && !native ? <FolderBrowser onOpen={actions.openPath} disabled={actions.pending} /> : null}

      <div className="demo-box">
        <button type="button" className="button" data-testid="open-demo" onClick={actions.openDemo} disabled={actions.pending}>
          Open demo workspace
        </button>
        <span className="muted">A sample project with sub-agents, a branch, a compaction and tool calls.</span>
      </div>
    </div>
  )
}
