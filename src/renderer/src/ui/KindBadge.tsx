import type { SessionKind } from '../../../shared/contract'

const LABELS: Record<SessionKind, string> = {
  main: 'main',
  branch: 'branch',
  'sub-agent': 'sub-agent',
  child: 'child',
  ephemeral: 'ephemeral'
}

export function KindBadge({ kind }: { kind: SessionKind }) {
  return <span className={`badge badge-${kind}`}>{LABELS[kind]}</span>
}
