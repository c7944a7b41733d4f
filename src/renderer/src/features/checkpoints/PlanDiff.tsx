import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { diffDataFromServer, DiffView } from '../files'
import type { PlanItem } from './plan-model'
import type { PlanTarget } from './queries'

export type DiffSide = 'rewind' | 'yours'

/** What each side of a preview diff compares, as its caption says it. */
export const DIFF_CAPTIONS: Record<DiffSide, string> = {
  rewind: 'The disk now → what the rewind writes',
  yours: 'Your change: what the agent left → the disk now'
}

/**
 * One preview row's line diff, fetched when shown (rewind.fileDiff): keyed by the preview's
 * token, so a new preview compares again, and never cached past it.
 */
export function PlanDiff({ target, token, item, side }: { target: PlanTarget; token: string; item: PlanItem; side: DiffSide }) {
  const of =
    target.kind === 'turn'
      ? { kind: 'turn' as const, sessionId: target.sessionId, turn: target.turn }
      : target.kind === 'undo'
        ? { kind: 'undo' as const, rewindId: target.rewindId }
        : { kind: 'version' as const, workspaceId: target.workspaceId, hash: target.hash }
  const query = useQuery({
    queryKey: ['rewind-plan', 'diff', token, item.pathId, side],
    queryFn: () => call('rewind.fileDiff', { of, pathId: item.pathId, side }),
    select: diffDataFromServer,
    gcTime: 0,
    retry: false
  })
  return (
    <figure className="plan-diff" data-testid="plan-diff" data-side={side} aria-busy={query.isPending}>
      <figcaption className="plan-diff-caption muted">{DIFF_CAPTIONS[side]}</figcaption>
      {query.isPending ? (
        <p className="loading" role="status" data-testid="plan-diff-loading">
          Comparing {item.path}…
        </p>
      ) : query.isError ? (
        <p className="plan-diff-error" role="alert">
          Cannot show this diff: {errorMessage(query.error)}
        </p>
      ) : (
        <DiffView data={query.data} path={item.path} mode="unified" />
      )}
    </figure>
  )
}
