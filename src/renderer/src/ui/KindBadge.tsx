import type { SessionKind } from '../../../shared/contract'
import { rewoundInLabel } from '../../../shared/source-labels'

const LABELS: Record<SessionKind, string> = {
  main: 'main',
  branch: 'branch',
  'sub-agent': 'sub-agent',
  child: 'child',
  ephemeral: 'ephemeral'
}

/**
 * A session's kind. A branch the agent's own history holds (`rewoundIn`: its source) says so:
 * the user went back inside the agent, it was not forked in Retrace.
 */
export function KindBadge({ kind, rewoundIn = null }: { kind: SessionKind; rewoundIn?: string | null }) {
  if (kind === 'branch' && rewoundIn) {
    return (
      <span className="badge badge-branch" data-testid="rewound-in-agent" title="The user went back to an earlier turn inside the agent and continued from there; this is the line that was left.">
        {rewoundInLabel(rewoundIn)}
      </span>
    )
  }
  return <span className={`badge badge-${kind}`}>{LABELS[kind]}</span>
}
