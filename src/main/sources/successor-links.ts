import type { Store } from '../store/store'

/** A session that continues another (a `/clear`, a reset thread) whose predecessor was not there when it was made. */
export interface UnlinkedSuccessor {
  rowId: number
  workspaceId: number
  source: string
  createdAt: number
  /** The source's id of the session it continues, when the source names it; else the one last active before it started. */
  continues: string | undefined
}

/**
 * Successors linked once the whole import is in. An import writes the newest sessions first (so
 * a window has them at once), which puts a successor before the session it continues; linking
 * at the end finds what linking in start order found: the session named, or the main session
 * of the same source last active before the successor started.
 */
export class SuccessorLinks {
  private readonly unlinked: UnlinkedSuccessor[] = []

  add(session: UnlinkedSuccessor): void {
    this.unlinked.push(session)
  }

  /** Link every successor whose predecessor is there now; true if any was. */
  link(store: Store): boolean {
    const sessions = this.unlinked.splice(0)
    if (sessions.length === 0) return false
    return store.transaction(() => {
      let linked = false
      for (const session of sessions) {
        const predecessor = session.continues
          ? store.sessions.bySourceId(session.workspaceId, session.source, session.continues)?.id
          : store.sessions.latestOfSource(session.workspaceId, session.source, 'main', session.rowId, session.createdAt)
        const predecessorRowId = predecessor ? store.sessions.get(predecessor)?.rowId : undefined
        if (predecessorRowId === undefined || predecessorRowId === session.rowId) continue
        store.sessions.setPredecessor(session.rowId, predecessorRowId)
        linked = true
      }
      return linked
    })
  }
}
