import type { LayoutSession, PlacedNode } from './layout'

/** The keys that move the graph's cursor. */
export const MOVE_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'])

/**
 * Where a key moves the cursor in the laid-out graph (rows newest first): up and down to the
 * next newer and older session, left to the session it came from (its parent, else the one it
 * continues), right to the first session that came from it (the oldest of them, nearest in
 * time), Home and End to the newest and oldest. Null when it cannot move that way.
 */
export function moveCursor(rows: readonly PlacedNode[], sessions: ReadonlyMap<string, LayoutSession>, cursor: string | null, key: string): string | null {
  if (rows.length === 0) return null
  const index = cursor === null ? -1 : rows.findIndex((row) => row.id === cursor)
  if (index < 0 || key === 'Home') return rows[0]?.id ?? null
  if (key === 'End') return rows.at(-1)?.id ?? null
  if (key === 'ArrowUp') return rows[index - 1]?.id ?? null
  if (key === 'ArrowDown') return rows[index + 1]?.id ?? null
  const shown = new Set(rows.map((row) => row.id))
  const ownerOf = (id: string): string | null => {
    const session = sessions.get(id)
    if (!session) return null
    if (session.parentId && shown.has(session.parentId) && session.parentId !== id) return session.parentId
    if (session.predecessorId && shown.has(session.predecessorId) && session.predecessorId !== id) return session.predecessorId
    return null
  }
  if (key === 'ArrowLeft') return cursor === null ? null : ownerOf(cursor)
  if (key === 'ArrowRight') {
    for (let row = rows.length - 1; row >= 0; row -= 1) {
      const id = (rows[row] as PlacedNode).id
      if (ownerOf(id) === cursor) return id
    }
  }
  return null
}
