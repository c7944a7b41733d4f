import type { SessionDetail, SessionRef } from '../../../../shared/contract'
import { rewoundInLabel, turnAtSeq } from '../../../../shared/source-labels'
import { useUiStore } from '../../state/ui-store'

/** Where this session sits in the tree: parent, the session it continues, and what came after. */
export function SessionLinks({ detail }: { detail: SessionDetail }) {
  const groups: [label: string, refs: SessionRef[]][] = [
    ['Parent', detail.parent ? [detail.parent] : []],
    ['Continues', detail.predecessor ? [detail.predecessor] : []],
    ['Continued in', detail.successors],
    ['Sub-sessions', detail.children]
  ]
  const present = groups.filter(([, refs]) => refs.length > 0)
  if (present.length === 0 && !detail.missingParent) return null
  return (
    <dl className="session-links">
      {detail.missingParent ? (
        <div className="session-link-group">
          <dt>Parent</dt>
          <dd className="missing-parent" data-testid="missing-parent-detail">
            not found: {detail.missingParent} (its file is gone, or was never written)
          </dd>
        </div>
      ) : null}
      {present.map(([label, refs]) => (
        <div key={label} className="session-link-group">
          <dt>{label}</dt>
          {refs.map((ref) => (
            <dd key={ref.id}>
              <SessionLink sessionRef={ref} />
              {label === 'Parent' && detail.forkSeq !== null ? <ForkPlaceLink detail={detail} parentId={ref.id} forkSeq={detail.forkSeq} /> : null}
            </dd>
          ))}
        </div>
      ))}
    </dl>
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
    <button type="button" className="link-button" onClick={() => selectSession(sessionRef.id)} title={`Open ${sessionRef.kind} session`}>
      {sessionRef.title || 'Untitled session'}
      <span className="link-kind"> ({sessionRef.kind})</span>
    </button>
  )
}
