import type { SessionDetail, SessionRef } from '../../../../shared/contract'
import { rewoundInLabel, turnAtSeq } from '../../../../shared/source-labels'
import { plural } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { HeaderMenu } from '../../ui/HeaderMenu'

/**
 * Where this session sits in the tree, on one line whatever it has: its parent and the session it
 * continues as links, the sessions after it and its sub-sessions (there may be hundreds) in menus.
 */
export function SessionLinks({ detail }: { detail: SessionDetail }) {
  const single: [label: string, ref: SessionRef | null][] = [
    ['Parent', detail.parent],
    ['Continues', detail.predecessor]
  ]
  const present = single.filter((entry): entry is [string, SessionRef] => entry[1] !== null)
  if (present.length === 0 && !detail.missingParent && detail.successors.length === 0 && detail.children.length === 0) return null
  return (
    <dl className="session-links" data-testid="session-links">
      {detail.missingParent ? (
        <div className="session-link-group">
          <dt>Parent</dt>
          <dd className="missing-parent" data-testid="missing-parent-detail">
            not found: {detail.missingParent} (its file is gone, or was never written)
          </dd>
        </div>
      ) : null}
      {present.map(([label, ref]) => (
        <div key={label} className="session-link-group">
          <dt>{label}</dt>
          <dd>
            <SessionLink sessionRef={ref} />
            {label === 'Parent' && detail.forkSeq !== null ? <ForkPlaceLink detail={detail} parentId={ref.id} forkSeq={detail.forkSeq} /> : null}
          </dd>
        </div>
      ))}
      <SessionsMenu label="Continued in" refs={detail.successors} testId="successors-menu" />
      <SessionsMenu label="Sub-sessions" refs={detail.children} testId="sub-sessions-menu" />
    </dl>
  )
}

/** A list of linked sessions as a menu button with its count: the header stays one line at any number. */
function SessionsMenu({ label, refs, testId }: { label: string; refs: readonly SessionRef[]; testId: string }) {
  if (refs.length === 0) return null
  return (
    <div className="session-link-group">
      <dt className="visually-hidden">{label}</dt>
      <dd>
        <HeaderMenu
          className="session-links-menu"
          testId={testId}
          title={`${label}: ${plural(refs.length, 'session')}, each opening on click`}
          label={
            <>
              {label} <span className="count-pill">{refs.length}</span> <span aria-hidden="true">▾</span>
            </>
          }
        >
          {refs.map((ref) => (
            <SessionLink key={ref.id} sessionRef={ref} />
          ))}
        </HeaderMenu>
      </dd>
    </div>
  )
}

/** Where the session left its parent, as a link to that place in the parent's transcript (a sub-agent: the call that started it). */
function ForkPlaceLink({ detail, parentId, forkSeq }: { detail: SessionDetail; parentId: string; forkSeq: number }) {
  const openMessage = useUiStore((state) => state.openMessage)
  return (
    <>
      {' '}
      <button
        type="button"
        className="link-button link-kind"
        data-testid="fork-place-link"
        title={detail.kind === 'sub-agent' ? 'Show the tool call that started this sub-agent, in its parent' : 'Show where this session left its parent'}
        onClick={() => openMessage({ workspaceId: detail.workspaceId, sessionId: parentId, seq: forkSeq })}
      >
        {forkPlace(detail, forkSeq)}
      </button>
    </>
  )
}

/**
 * Where the session left its parent. A line left by rewinding inside the agent starts at the
 * turn the user went back to (shown as a turn: that is how the user chose it in the agent).
 */
function forkPlace(detail: SessionDetail, forkSeq: number): string {
  if (detail.kind === 'sub-agent') return detail.forkTurn !== null ? `started by its tool call in turn ${detail.forkTurn}` : `started by its tool call (message #${forkSeq})`
  if (!detail.rewoundInAgent) return detail.forkTurn !== null ? `from turn ${detail.forkTurn}` : `at message #${forkSeq}`
  const turn = turnAtSeq(detail.checkpoints, forkSeq)
  return turn === undefined ? `at message #${forkSeq}, ${rewoundInLabel(detail.source)}` : `from turn ${turn} on, ${rewoundInLabel(detail.source)}`
}

function SessionLink({ sessionRef }: { sessionRef: SessionRef }) {
  const selectSession = useUiStore((state) => state.selectSession)
  return (
    <button type="button" className="link-button session-link" data-testid="session-link" onClick={() => selectSession(sessionRef.id)} title={`Open ${sessionRef.kind} session: ${sessionRef.title || 'Untitled session'}`}>
      {sessionRef.title || 'Untitled session'}
      <span className="link-kind"> ({sessionRef.kind})</span>
    </button>
  )
}
