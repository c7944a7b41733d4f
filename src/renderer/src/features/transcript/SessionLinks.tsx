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
              {label === 'Parent' && detail.forkSeq !== null ? <span className="link-kind"> {forkPlace(detail, detail.forkSeq)}</span> : null}
            </dd>
          ))}
        </div>
      ))}
    </dl>
  )
}

/**
 * Where the session left its parent. A line left by rewinding inside the agent starts at the
 * turn the user went back to (shown as a turn: that is how the user chose it in the agent).
 */
function forkPlace(detail: SessionDetail, forkSeq: number): string {
  if (!detail.rewoundInAgent) return `at message #${forkSeq}`
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
