import type { SessionMerged } from '../../../shared/contract'
import { formatDateTime, plural } from '../lib/format'

/** What a merged branch's badge says on hover: how often, when last, and what is new since. */
export function mergedTitle(merged: SessionMerged, parentTitle: string | null = null): string {
  const into = parentTitle ? `Merged into “${parentTitle}”` : 'Merged into its parent'
  const times = merged.count === 1 ? 'once' : `${merged.count} times`
  const since = merged.newMessages === 0 ? 'nothing new since' : `${plural(merged.newMessages, 'message')} added since, not merged yet`
  return `${into} ${times}, last ${formatDateTime(merged.lastAt)}; ${since}.`
}

/**
 * A branch merged back into a session: "merged", with "+N" when messages were added since the
 * last merge (only those a further merge takes). The card, the list row and the header show it.
 */
export function MergedBadge({ merged, parentTitle = null }: { merged: SessionMerged | null; parentTitle?: string | null }) {
  if (!merged) return null
  return (
    <span className="badge badge-merged" data-testid="merged-badge" title={mergedTitle(merged, parentTitle)}>
      merged{merged.count > 1 ? ` ×${merged.count}` : ''}
      {merged.newMessages > 0 ? <span className="badge-merged-new"> +{merged.newMessages}</span> : null}
    </span>
  )
}
