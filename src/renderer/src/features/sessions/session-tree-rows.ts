import { type SessionSummary } from '../../../../shared/contract'

type Summary = Pick<SessionSummary, 'id' | 'parentId' | 'parentTitle' | 'createdAt'>

/** One line of the session list: a session placed in the tree of the sessions loaded so far. */
export interface SessionTreeRow<S extends Summary = SessionSummary> {
  session: S
  /** How deep it sits under loaded ancestors: 0 for a root. */
  depth: number
  /**
   * The parent's title when the session has a parent that is not among the loaded rows (its page
   * is not loaded yet, or a filter left it out): the row stands as a root and names it instead.
   */
  detachedFrom: string | null
}

/**
 * Orders the loaded sessions as a tree: roots keep the order they came in (newest activity
 * first), and each is followed by its children (forks, sub-agents) oldest first, recursively, so a
 * child is never shown above its parent nor under a session it has nothing to do with.
 */
export function sessionTreeRows<S extends Summary>(sessions: readonly S[]): SessionTreeRow<S>[] {
  const loaded = new Set(sessions.map((session) => session.id))
  const childrenOf = new Map<string, S[]>()
  const roots: S[] = []
  for (const session of sessions) {
    if (session.parentId !== null && loaded.has(session.parentId)) {
      const siblings = childrenOf.get(session.parentId) ?? []
      siblings.push(session)
      childrenOf.set(session.parentId, siblings)
    } else roots.push(session)
  }
  for (const siblings of childrenOf.values()) siblings.sort(byCreation)

  const rows: SessionTreeRow<S>[] = []
  const placed = new Set<string>()
  const place = (session: S, depth: number): void => {
    if (placed.has(session.id)) return
    placed.add(session.id)
    const detachedFrom = depth === 0 && session.parentId !== null ? session.parentTitle || 'another session' : null
    rows.push({ session, depth, detachedFrom })
    for (const child of childrenOf.get(session.id) ?? []) place(child, depth + 1)
  }
  for (const root of roots) place(root, 0)
  // Parent links that loop (never written by Retrace, but a store is data) reach no root: show
  // those sessions at the end rather than lose them.
  for (const session of sessions) place(session, 0)
  return rows
}

function byCreation(a: Summary, b: Summary): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/**
 * Where a row comes from, as the row writes it: the parent turn it branched from ("from turn 4"),
 * and the parent's name too when the parent is not the row above it.
 */
export function originText(row: { detachedFrom: string | null; session: Pick<SessionSummary, 'forkTurn'> }): string | null {
  const turn = row.session.forkTurn
  if (row.detachedFrom !== null) return turn !== null ? `from turn ${turn} of “${row.detachedFrom}”` : `from “${row.detachedFrom}”`
  return turn !== null ? `from turn ${turn}` : null
}

/** What a session after a reset (`/clear`, `/new`) says of the one it continues. */
export function continuesText(session: Pick<SessionSummary, 'predecessorId' | 'predecessorTitle'>): string | null {
  if (session.predecessorId === null) return null
  return `continues “${session.predecessorTitle || 'an earlier session'}”`
}
