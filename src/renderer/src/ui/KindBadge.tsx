import type { SessionKind } from '../../../shared/contract'
import { rewoundInLabel } from '../../../shared/source-labels'

const LABELS: Record<SessionKind, string> = {
  main: 'main',
  branch: 'branch',
  'sub-agent': 'sub-agent',
  child: 'child',
  ephemeral: 'ephemeral'
}

/** What each kind means, one sentence, for the badge's tooltip. */
const TITLES: Record<SessionKind, string> = {
  main: 'A session the user started: the top of its tree.',
  branch: 'A fork made in Retrace from an earlier turn of its parent, which keeps its own transcript.',
  'sub-agent': 'A helper agent its parent session started for one task (a Task tool call, for example).',
  child: 'A session another session started in its own right, with its own transcript.',
  ephemeral: 'A session the agent did not keep (run without persistence): only what Retrace recorded of it remains.'
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
  return (
    <span className={`badge badge-${kind}`} title={TITLES[kind]}>
      {LABELS[kind]}
    </span>
  )
}
