import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { createPortal } from 'react-dom'
import { MAX_IMPORT_JSON_CHARS } from '../../../../shared/contract'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { useReplayStore } from '../replay'

/**
 * "Open export…": a JSON export (someone's session, from `retrace export --format json`) becomes
 * a session of this workspace, selected and ready to replay from its first message. The file is
 * read in the window and sent as text; the server validates it and says what is wrong, if anything.
 */
export function OpenExport({ workspaceId }: { workspaceId: number }) {
  const input = useRef<HTMLInputElement>(null)
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy'; name: string } | { kind: 'done' | 'error'; text: string }>({ kind: 'idle' })
  // What was opened is said for a while; an error stays until dismissed.
  useEffect(() => {
    if (state.kind !== 'done') return
    const timer = setTimeout(() => setState({ kind: 'idle' }), 12_000)
    return () => clearTimeout(timer)
  }, [state])

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = '' // the same file can be chosen again
    if (!file) return
    if (file.size > MAX_IMPORT_JSON_CHARS * 4) {
      setState({ kind: 'error', text: `${file.name} is too large to be a session export.` })
      return
    }
    setState({ kind: 'busy', name: file.name })
    try {
      const imported = await call('export.importJson', { workspaceId, json: await file.text() })
      useUiStore.getState().selectSession(imported.sessionId)
      useReplayStore.getState().start(imported.sessionId)
      const skipped = imported.skipped.length > 0 ? `; ${plural(imported.skipped.length, 'file change')} could not be brought back (${imported.skipped[0]?.reason ?? ''})` : ''
      const changed = imported.contentsChangedPaths
      const redacted = changed.length > 0 ? `; ${plural(changed.length, 'file')} came redacted and ${changed.length === 1 ? 'was' : 'were'} opened as carried (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''})` : ''
      setState({ kind: 'done', text: `Opened “${imported.title}”: ${plural(imported.messages, 'message')}, ${plural(imported.fileChanges, 'file change')}${skipped}${redacted}. Press Play to replay it.` })
    } catch (error) {
      setState({ kind: 'error', text: errorMessage(error) })
    }
  }

  return (
    <div className="open-export">
      <input ref={input} type="file" accept=".json,application/json" hidden data-testid="open-export-input" onChange={(event) => void onFile(event)} />
      <button
        type="button"
        className="button small"
        data-testid="open-export"
        disabled={state.kind === 'busy'}
        title="Open a session exported as JSON (by Retrace) in this workspace, to read and replay it"
        onClick={() => input.current?.click()}
      >
        {state.kind === 'busy' ? `Opening ${state.name}…` : 'Open export…'}
      </button>
      {/* In the document, not the menu this button sits in: it stays up once the menu closes. */}
      {state.kind === 'done' || state.kind === 'error'
        ? createPortal(
            <p className={`open-export-status${state.kind === 'error' ? ' is-error' : ''}`} role={state.kind === 'error' ? 'alert' : 'status'} data-testid="open-export-status">
              {state.text}
              <button type="button" className="button ghost small" aria-label="Dismiss" onClick={() => setState({ kind: 'idle' })}>
                ×
              </button>
            </p>,
            document.body
          )
        : null}
    </div>
  )
}
