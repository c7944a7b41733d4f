import type { WorkspaceListing } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Modal } from '../../ui/Modal'
import { useForgetWorkspace } from './mutations'
import { useForgetPlan } from './queries'

/**
 * Forgetting asks first and says what goes: every session Retrace holds of the workspace
 * (warm-ups too). The agents' files stay, so an import brings them back unless it is hidden.
 */
export function ForgetDialog({ workspace, workspaceId, opener, onClose }: { workspace: WorkspaceListing; workspaceId: number; opener: HTMLElement | null; onClose: () => void }) {
  const plan = useForgetPlan(workspaceId)
  const forget = useForgetWorkspace()
  const sessions = plan.data?.sessions
  return (
    <Modal
      title={`Forget ${workspace.name}?`}
      onClose={onClose}
      canClose={!forget.isPending}
      returnFocusTo={opener}
      testId="forget-workspace"
      footer={
        <>
          <button type="button" className="button ghost" onClick={onClose} disabled={forget.isPending}>
            Cancel
          </button>
          <button
            type="button"
            className="button primary"
            data-testid="forget-confirm"
            data-autofocus
            disabled={sessions === undefined || forget.isPending}
            onClick={() => sessions !== undefined && forget.mutate({ workspaceId, sessions }, { onSuccess: onClose })}
          >
            {sessions === undefined ? 'Forget' : `Forget ${plural(sessions, 'session')}`}
          </button>
        </>
      }
    >
      <p className="mono forget-path">{workspace.path}</p>
      {plan.data ? (
        <p data-testid="forget-summary">
          Removes {plural(plan.data.sessions, 'session')}
          {plan.data.warmups > 0 ? ` (${plan.data.warmups} of them warm-ups)` : ''} and their transcripts and file history from Retrace. The agents&apos; own files are not touched.{' '}
          {plan.data.hidden ? 'It stays hidden, so imports leave it alone.' : 'A later import of every history brings them back unless you hide the workspace too.'}
        </p>
      ) : plan.isError ? (
        <p role="alert">{errorMessage(plan.error)}</p>
      ) : (
        <p className="muted">Counting its sessions…</p>
      )}
      {forget.error ? (
        <p className="open-error" role="alert">
          {errorMessage(forget.error)}
        </p>
      ) : null}
    </Modal>
  )
}
