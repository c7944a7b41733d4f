import type { SessionSummary, TreeNode } from '../../../shared/contract'

type Noted = Pick<SessionSummary | TreeNode, 'warmup' | 'missingParent' | 'messageCount'>

/** What stands for a missing title: a session that never got a message says so. */
export function untitled(session: Pick<Noted, 'messageCount'>): string {
  return session.messageCount === 0 ? 'Empty session' : 'Untitled session'
}

/** The sentence a card and the transcript header give a sub-agent whose parent is not in Retrace. */
export function missingParentText(id: string, short = false): string {
  return `parent session not found: ${short ? id.slice(0, 8) : id}`
}

const MISSING_PARENT_HELP = 'The agent names this session as its parent, but no file of it was found (deleted, or never written). It is adopted if that session is imported later.'

/**
 * What a card says beyond its kind: a warm-up (an agent's start-up work), and a sub-agent whose
 * parent session is not in Retrace — so it does not pass for a session the user started. The
 * card leaves out its source and time for the latter (see `.has-missing-parent`).
 */
export function SessionNotes({ session }: { session: Noted }) {
  return (
    <>
      {session.warmup ? (
        <span className="badge badge-muted" title="Started by the agent at start-up (Claude Code's warm-up), not by a prompt">
          warm-up
        </span>
      ) : null}
      {session.missingParent ? (
        <span className="missing-parent" data-testid="missing-parent" title={`${missingParentText(session.missingParent)}. ${MISSING_PARENT_HELP}`}>
          {missingParentText(session.missingParent, true)}
        </span>
      ) : null}
    </>
  )
}
