import { useState } from 'react'
import type { Recovery } from '../../../../shared/contract'
import { formatDateTime, plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { ErrorState, Loading } from '../../ui/States'
import { DiffView, FileNotice, useFileVersion, useVersionsDiff, VersionView } from '../files'
import { useDismissRecovery } from './mutations'
import { useUnseenRecoveries } from './queries'

type Conflict = Recovery['conflicts'][number]

/**
 * Above the workspace, until dismissed: a rewind here was interrupted (Retrace crashed or was
 * killed) and the next start rolled it back. Files changed after the interruption were left as
 * the user left them; each can be compared with its version from before the rewind, and that
 * version saved.
 */
export function RecoveryNotice({ workspaceId }: { workspaceId: number }) {
  const recoveries = useUnseenRecoveries(workspaceId)
  const dismiss = useDismissRecovery(workspaceId)
  const [open, setOpen] = useState<{ conflict: Conflict; opener: HTMLElement } | null>(null)
  const items = recoveries.data?.items ?? []
  return (
    // Always there (empty: no height), so the workspace's grid rows stay the same.
    <div className="recovery-notices">
      {items.map((recovery) => (
        <section key={recovery.rewindId} className="recovery-notice" role="status" data-testid="recovery-notice" aria-label="Interrupted rewind">
          <div className="recovery-notice-text">
            <strong>A rewind of files was interrupted, and has been rolled back.</strong>{' '}
            {describe(recovery)}
            {recovery.conflicts.length === 0 ? (
              ' Every file it had changed is as it was before it.'
            ) : (
              <>
                {' '}Every file it had changed is back as before it, except {plural(recovery.conflicts.length, 'file')} changed after the interruption: Retrace left{' '}
                {recovery.conflicts.length === 1 ? 'it' : 'them'} as you left {recovery.conflicts.length === 1 ? 'it' : 'them'}, and saved a copy.
              </>
            )}
          </div>
          {recovery.conflicts.length > 0 ? (
            <ul className="recovery-conflicts">
              {recovery.conflicts.map((conflict) => (
                <li key={conflict.pathId}>
                  <span className="mono">{conflict.path}</span> <span className="muted">{foundLabel(conflict)}</span>
                  {conflict.before ? (
                    <button type="button" className="button" onClick={(event) => setOpen({ conflict, opener: event.currentTarget })}>
                      {conflict.found && 'hash' in conflict.found ? 'Compare with the version from before the rewind' : 'Show the version from before the rewind'}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          <button type="button" className="button" onClick={() => dismiss.mutate(recovery.rewindId)} disabled={dismiss.isPending}>
            Dismiss
          </button>
        </section>
      ))}
      {open ? <ConflictDialog workspaceId={workspaceId} conflict={open.conflict} opener={open.opener} onClose={() => setOpen(null)} /> : null}
    </div>
  )
}

function describe(recovery: Recovery): string {
  const what = recovery.targetTurn !== null ? ` back to before turn ${recovery.targetTurn}` : recovery.undoOf ? ' (an undo)' : ''
  const of = recovery.sessionTitle ? ` of “${recovery.sessionTitle}”` : ''
  return `The rewind${what}${of} stopped part-way; Retrace finished it by rolling it back at ${formatDateTime(recovery.recoveredAt)}.`
}

function foundLabel(conflict: Conflict): string {
  if (conflict.found === null) return 'deleted since'
  if (!('hash' in conflict.found)) return `now a ${conflict.found.kind === 'directory' ? 'folder' : 'special file'}, left as it is`
  return conflict.saved ? 'your version is on disk, and saved' : 'your version is on disk'
}

/** The version from before the rewind, against the user's, with a way to save it as a file. */
function ConflictDialog({ workspaceId, conflict, opener, onClose }: { workspaceId: number; conflict: Conflict; opener: HTMLElement; onClose: () => void }) {
  const before = conflict.before
  const found = conflict.found && 'hash' in conflict.found && conflict.saved ? conflict.found : null
  return (
    <Modal
      title={conflict.path}
      onClose={onClose}
      returnFocusTo={opener}
      wide
      testId="recovery-conflict"
      footer={
        <>
          {before ? <SaveVersion workspaceId={workspaceId} hash={before.hash} path={conflict.path} /> : null}
          <button type="button" className="button primary" onClick={onClose} data-autofocus>
            Close
          </button>
        </>
      }
    >
      <p className="muted">{found ? 'From the version before the rewind (−) to yours, on disk now (+).' : 'The version from before the rewind. Yours was deleted after the interruption.'}</p>
      {before && found ? <BeforeAgainstFound workspaceId={workspaceId} before={before} found={found} path={conflict.path} /> : before ? <VersionView workspaceId={workspaceId} hash={before.hash} path={conflict.path} /> : null}
    </Modal>
  )
}

function BeforeAgainstFound({ workspaceId, before, found, path }: { workspaceId: number; before: { hash: string; size: number }; found: { hash: string; size: number }; path: string }) {
  const diff = useVersionsDiff(workspaceId, before, found)
  if (diff.status === 'error') return <ErrorState title="Could not compare the versions" error={diff.error} onRetry={diff.retry} />
  if (diff.status === 'pending') return <Loading label="Comparing…" />
  if (diff.data.hunks.length === 0 && !diff.data.binary && !diff.data.tooLarge) return <FileNotice title="The two versions are the same" />
  return <DiffView data={diff.data} path={path} mode="unified" />
}

/** A download of one recorded version (the browser's or Electron's own save). */
function SaveVersion({ workspaceId, hash, path }: { workspaceId: number; hash: string; path: string }) {
  const version = useFileVersion(workspaceId, hash)
  const name = `${path.split('/').pop() ?? 'file'}.before-rewind`
  if (!version.data) return null
  if (version.data.truncated) return <span className="muted">Too large to save from here: use `retrace recovery` in a terminal.</span>
  const { text, base64 } = version.data
  const save = () => {
    const bytes = text !== null ? new TextEncoder().encode(text) : Uint8Array.from(atob(base64 ?? ''), (char) => char.charCodeAt(0))
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }))
    const link = document.createElement('a')
    link.href = url
    link.download = name
    link.click()
    URL.revokeObjectURL(url)
  }
  return (
    <button type="button" className="button" onClick={save}>
      Save the version from before the rewind…
    </button>
  )
}
