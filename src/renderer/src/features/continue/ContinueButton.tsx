import { useState } from 'react'
import type { SessionDetail } from '../../../../shared/contract'
import { ContinueDialog } from './ContinueDialog'
import { continueOffer } from './continue-model'

/**
 * The header's "what now?" for a session: **Continue in Claude Code / Codex** (a dialog writes a
 * new session file the agent resumes), or for a branch no agent can resume, a note saying so.
 * The dialog is the button's own: the header stays mounted while it is open.
 */
export function ContinueButton({ detail }: { detail: SessionDetail }) {
  // The button that opened the dialog (focus returns to it); null while it is closed.
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  const offer = continueOffer(detail)
  if (offer.kind === 'none') return null
  if (offer.kind === 'retrace-only') {
    return (
      <span className="continue-retrace-only muted" data-testid="continue-retrace-only" title="No agent can resume this branch: its agent cannot read a session written for it. Continue it here, in Retrace.">
        Retrace-only<span className="visually-hidden">: no agent can resume it</span>
      </span>
    )
  }
  return (
    <>
      <button
        type="button"
        className="button small"
        data-testid="continue-in-agent"
        title={`Write this conversation as a new ${offer.label.replace('Continue in ', '')} session, up to a turn you choose, and get the command that resumes it`}
        onClick={(event) => setOpener(event.currentTarget)}
      >
        <span aria-hidden="true">▸</span> {offer.label}
      </button>
      {opener ? <ContinueDialog sessionId={detail.id} title={detail.title} agent={offer.agent} turnCount={detail.turnCount} onClose={() => setOpener(null)} returnFocusTo={opener} /> : null}
    </>
  )
}
