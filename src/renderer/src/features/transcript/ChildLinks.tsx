import type { MouseEvent } from 'react'
import type { ChildRef } from '../../../../shared/contract'
import { useUiStore } from '../../state/ui-store'

/** Below a turn's header in the parent: each branch that leaves the session at this turn, linked. */
export function BranchMarker({ turn, branches }: { turn: number; branches: readonly ChildRef[] }) {
  const selectSession = useUiStore((state) => state.selectSession)
  return (
    <div className="branch-marker" data-testid="branch-marker" data-turn={turn}>
      <ForkGlyph />
      <span>{branches.length === 1 ? 'A branch goes another way from here:' : `${branches.length} branches go other ways from here:`}</span>
      {branches.map((branch) => (
        <button key={branch.id} type="button" className="link-button" data-testid="branch-marker-link" onClick={() => selectSession(branch.id)} title="Open the branch">
          {branch.title || 'Untitled branch'}
        </button>
      ))}
    </div>
  )
}

/** In a tool call's collapsed line: the sub-agent sessions it started, each opening on click (without opening the call). */
export function SubAgentLinks({ subAgents }: { subAgents: readonly ChildRef[] }) {
  const selectSession = useUiStore((state) => state.selectSession)
  const open = (event: MouseEvent, id: string) => {
    // Inside <summary>: a click would otherwise fold the call open.
    event.preventDefault()
    event.stopPropagation()
    selectSession(id)
  }
  return (
    <span className="sub-agent-links">
      {subAgents.map((agent) => (
        <button key={agent.id} type="button" className="sub-agent-link" data-testid="sub-agent-link" onClick={(event) => open(event, agent.id)} title={`Open the sub-agent session this call started: ${agent.title}`}>
          <span aria-hidden="true">↳</span> sub-agent session
        </button>
      ))}
    </span>
  )
}

/** A branch glyph drawn, not typed: the Unicode fork signs are missing from many UI fonts. */
function ForkGlyph() {
  return (
    <svg className="branch-marker-sign" width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="4" cy="3" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="4" cy="13" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="12" cy="5" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M4 5v6M12 7c0 3-8 2-8 4" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  )
}
