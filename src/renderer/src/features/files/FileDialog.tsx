import { useEffect, useId, useMemo, useRef } from 'react'
import { plural } from '../../lib/format'
import { ErrorState, Loading } from '../../ui/States'
import { useSessionDetail } from '../sessions'
import { LineCounts, OpBadge } from './bits'
import { formatMode, groupTurnChanges, OBSERVED_LABEL, type ChangeGroup } from './changes'
import { fileNeighbours, neighbourFocus } from './file-nav'
import { DiffView } from './DiffView'
import { BlameView } from './BlameView'
import { FileHistory } from './FileHistory'
import { useFilesUi, type DiffMode, type FileTarget, type RestoreRequest } from './files-ui'
import { useNetCounts, useTurnChanges, useTurnDiff } from './queries'
import { fileButtonId } from './TurnFiles'

/** The open file's dialog, if it belongs to the session on screen. Render once per transcript. */
export function FileDialogHost({ sessionId, onRestore }: { sessionId: string; onRestore?: (request: RestoreRequest) => void }) {
  const target = useFilesUi((state) => state.target)
  if (!target || target.sessionId !== sessionId) return null
  // Keyed by turn: moving to the next file of the turn keeps the dialog open.
  return <FileDialog key={`${target.sessionId}:${target.turn}`} target={target} onRestore={onRestore} />
}

/**
 * A modal (native <dialog>: the page behind is inert, Tab stays inside, Escape closes) with one
 * file's diff across a turn and, one click away, its history across sessions. Focus goes back
 * to the file row that opened it.
 */
function FileDialog({ target, onRestore }: { target: FileTarget; onRestore: ((request: RestoreRequest) => void) | undefined }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const { closeFile, setView, diffMode, setDiffMode, openFile } = useFilesUi()
  const detail = useSessionDetail(target.sessionId)
  const workspaceId = detail.data?.workspaceId ?? null
  const { group, turn, view } = target
  // The turn's other files, for previous / next (cached: the row that opened this loaded them).
  const changes = useTurnChanges(target.sessionId, turn, true)
  const groups = useMemo(() => groupTurnChanges(changes.data?.items ?? []), [changes.data])
  const net = useNetCounts(target.sessionId, turn, groups)
  const nav = fileNeighbours(groups, group.key)
  const go = (to: ChangeGroup | null) => {
    if (!to) return
    const id = (g: ChangeGroup) => fileButtonId(target.sessionId, turn, g)
    openFile({ sessionId: target.sessionId, turn, group: { ...to, ...net.get(to.key) }, view, returnFocus: neighbourFocus(target.returnFocus, id(group), id(to)) })
  }

  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
    // Start at the title, so a screen reader first reads which file this is.
    dialog?.querySelector<HTMLElement>('.file-dialog-path')?.focus()
    const returnTo = target.returnFocus
    return () => {
      // The row may have been scrolled out of the virtual list: then the transcript itself.
      const row = document.querySelector<HTMLElement>(`[data-file-button="${CSS.escape(returnTo)}"]`)
      ;(row ?? document.querySelector<HTMLElement>('.message-scroll'))?.focus()
    }
  }, [target.returnFocus])

  return (
    <dialog
      ref={ref}
      className="file-dialog"
      data-testid="file-dialog"
      aria-labelledby={titleId}
      onClose={closeFile}
      onKeyDown={(event) => {
        // Alt+↓ / Alt+↑: the turn's next and previous file, wherever focus is in the dialog.
        if (!event.altKey || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return
        event.preventDefault()
        go(event.key === 'ArrowDown' ? nav.next : nav.previous)
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself.
        if (event.target === event.currentTarget) event.currentTarget.close()
      }}
    >
      <header className="file-dialog-header">
        <div className="file-dialog-title-row">
          <OpBadge op={group.op} />
          <h2 id={titleId} className="file-dialog-path" tabIndex={-1}>
            {group.from ? (
              <>
                {group.from.path} <span aria-hidden="true">→</span>
                <span className="visually-hidden">renamed to</span>{' '}
              </>
            ) : null}
            {group.path}
          </h2>
          <LineCounts added={group.added} removed={group.removed} />
          {nav.total > 1 ? (
            <div className="file-dialog-nav" role="group" aria-label="Files of this turn">
              <button type="button" className="icon-button" data-testid="file-previous" aria-label="Previous file" title="Previous file (Alt+↑)" disabled={!nav.previous} onClick={() => go(nav.previous)}>
                ‹
              </button>
              <span className="file-dialog-position muted" data-testid="file-position">
                {nav.position} of {nav.total}
              </span>
              <button type="button" className="icon-button" data-testid="file-next" aria-label="Next file" title="Next file (Alt+↓)" disabled={!nav.next} onClick={() => go(nav.next)}>
                ›
              </button>
            </div>
          ) : null}
          <button type="button" className="icon-button file-dialog-close" aria-label="Close" title="Close (Esc)" onClick={() => ref.current?.close()}>
            ×
          </button>
        </div>
        <div className="file-dialog-toolbar">
          <p className="file-dialog-context muted">{describe(group, turn, detail.data?.title)}</p>
          <div className="segmented" role="group" aria-label="View">
            <button type="button" aria-pressed={view === 'diff'} data-testid="file-view-diff" onClick={() => setView('diff')}>
              Diff
            </button>
            <button type="button" aria-pressed={view === 'history'} data-testid="file-view-history" onClick={() => setView('history')}>
              History
            </button>
            <button type="button" aria-pressed={view === 'blame'} data-testid="file-view-blame" onClick={() => setView('blame')} title="Who last wrote each line">
              Blame
            </button>
          </div>
          {view === 'blame' ? null : <ModeToggle mode={diffMode} setMode={setDiffMode} />}
        </div>
      </header>
      <div className="file-dialog-body">
        {view === 'diff' ? (
          <TurnDiff target={target} workspaceId={workspaceId} mode={diffMode} />
        ) : workspaceId === null ? (
          <Loading label="Loading…" />
        ) : view === 'blame' ? (
          <BlameView
            workspaceId={workspaceId}
            pathId={group.pathId}
            path={group.path}
            onLeave={() => {
              ref.current?.close()
              closeFile()
            }}
          />
        ) : (
          <FileHistory
            workspaceId={workspaceId}
            pathId={group.pathId}
            path={group.path}
            current={{ sessionId: target.sessionId, turn }}
            mode={diffMode}
            onRestore={onRestore}
            onLeave={() => {
              // Closed in the store at once: the jump may show another session, whose transcript has no dialog host for this one.
              ref.current?.close()
              closeFile()
            }}
          />
        )}
      </div>
    </dialog>
  )
}

function describe(group: ChangeGroup, turn: number, title: string | undefined): string {
  const parts = [`Turn ${turn}${title ? ` of “${title}”` : ''}`]
  if (group.entries.length > 1) parts.push(`${plural(group.entries.length, 'edit')}, shown as one`)
  parts.push(`seen by ${group.observed.map((observed) => OBSERVED_LABEL[observed]).join(', ')}`)
  if (group.before && group.after && group.before.mode !== group.after.mode) {
    parts.push(`permissions ${formatMode(group.before.mode)} → ${formatMode(group.after.mode)}`)
  }
  return parts.join(' · ')
}

function ModeToggle({ mode, setMode }: { mode: DiffMode; setMode: (mode: DiffMode) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button type="button" aria-pressed={mode === 'unified'} data-testid="diff-mode-unified" onClick={() => setMode('unified')}>
        Unified
      </button>
      <button type="button" aria-pressed={mode === 'split'} data-testid="diff-mode-split" onClick={() => setMode('split')}>
        Side by side
      </button>
    </div>
  )
}

function TurnDiff({ target, workspaceId, mode }: { target: FileTarget; workspaceId: number | null; mode: DiffMode }) {
  const diff = useTurnDiff(target.sessionId, workspaceId, target.turn, target.group)
  if (diff.status === 'error') return <ErrorState title="Could not load the diff" error={diff.error} onRetry={diff.retry} />
  if (diff.status === 'pending') return <Loading label={`Loading the diff of ${target.group.path}…`} />
  return <DiffView data={diff.data} path={target.group.path} mode={mode} />
}
