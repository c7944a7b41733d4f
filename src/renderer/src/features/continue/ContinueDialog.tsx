import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { CopyLine } from '../../ui/CopyLine'
import { Modal } from '../../ui/Modal'
import { agentName, type ResumableAgent } from './continue-model'

interface Props {
  sessionId: string
  title: string
  agent: ResumableAgent
  turnCount: number
  onClose: () => void
  returnFocusTo: HTMLElement | null
}

/**
 * Continue a session in its agent: pick the turn to continue after, then Retrace writes a new
 * session file in the agent's own folder (nothing of the agent's is changed) and shows the
 * command that resumes it, to copy into a terminal.
 */
export function ContinueDialog({ sessionId, title, agent, turnCount, onClose, returnFocusTo }: Props) {
  const [turn, setTurn] = useState(turnCount)
  const write = useMutation({ mutationFn: () => call('sessions.continueInAgent', { sessionId, turn, agent }) })
  const name = agentName(agent)
  if (write.data) {
    const result = write.data
    return (
      <Modal
        title={`Continue in ${name}`}
        onClose={onClose}
        returnFocusTo={returnFocusTo}
        testId="continue-dialog"
        wide
        focusKey="written"
        footer={
          <button type="button" className="button primary" onClick={onClose}>
            Done
          </button>
        }
      >
        <p className="dialog-intro" data-testid="continue-result">
          A new {name} session holds the conversation up to the end of turn {turn} ({plural(result.items, 'message and tool call', 'messages and tool calls')}). Run this in a terminal to resume it:
        </p>
        <CopyLine text={result.command} testId="continue-command" autoFocus />
        {result.cwdExists ? null : (
          <p className="dialog-warning" data-testid="continue-cwd-missing">
            The session’s folder, <span className="mono">{result.cwd}</span>, is not on this computer (moved, or another machine’s): {name} resumes a session in the folder it
            ran in, so put the project back there first.
          </p>
        )}
        <p className="muted continue-path">
          Written to <span className="mono">{result.path}</span>
        </p>
      </Modal>
    )
  }
  return (
    <Modal
      title={`Continue in ${name}`}
      onClose={onClose}
      canClose={!write.isPending}
      returnFocusTo={returnFocusTo}
      testId="continue-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose} disabled={write.isPending}>
            Cancel
          </button>
          <button type="button" className="button primary" data-testid="continue-submit" onClick={() => write.mutate()} disabled={write.isPending}>
            {write.isPending ? 'Writing…' : `Write ${name} session`}
          </button>
        </>
      }
    >
      <p className="dialog-intro">
        Writes a <strong>new</strong> {name} session file with “{title || 'Untitled session'}” up to the end of the turn you choose, so {name} can resume it from
        there. No file {name} already has is changed.
      </p>
      <label className="continue-turn">
        Up to the end of turn{' '}
        <input
          type="number"
          data-testid="continue-turn"
          data-autofocus
          min={1}
          max={turnCount}
          value={turn}
          onChange={(event) => setTurn(Math.min(turnCount, Math.max(1, Math.trunc(Number(event.target.value)) || 1)))}
        />{' '}
        of {turnCount}
      </label>
      <p className="muted">Prompts, replies and tool calls with their results are written; reasoning and Retrace’s notes are not. Branches of other agents’ sessions are Retrace-only: no agent can resume them.</p>
      {write.isError ? (
        <div className="dialog-error" role="alert">
          <p className="dialog-error-title">Nothing was written</p>
          <p>{errorMessage(write.error)}</p>
        </div>
      ) : null}
    </Modal>
  )
}
