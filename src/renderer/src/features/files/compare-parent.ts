import type { SessionDetail } from '../../../../shared/contract'
import type { CompareSides } from './CompareFiles'

type Child = Pick<SessionDetail, 'id' | 'kind' | 'turnCount' | 'forkTurn'>
type Parent = Pick<SessionDetail, 'id' | 'turnCount'>

/**
 * What "Compare with parent" compares: the parent's files (left) against the branch's (right),
 * each as that session left them. A branch goes on numbering its parent's turns, so both sides
 * are taken after the same turn N (the parent after its last, if it has fewer); a sub-agent
 * works inside the parent's turn that started it, so its checkpoints face the parent after that turn.
 */
export interface ParentComparison {
  /** The child's turns it can be compared after: its own (a branch's start from the turn it branched at). */
  turns: number[]
  /** The last of them: the branch as it is now. */
  initialTurn: number | null
  sides(turn: number): CompareSides
  /** The parent's side for the child's turn: "after turn 3", "after its last turn (turn 2)". */
  parentPoint(turn: number): string
}

export function parentComparison(child: Child, parent: Parent): ParentComparison {
  const parentAfter = (turn: number): number => (child.kind === 'branch' ? Math.min(turn, parent.turnCount) : Math.min(child.forkTurn ?? parent.turnCount, parent.turnCount))
  const first = child.kind === 'branch' ? Math.max(child.forkTurn ?? 1, 1) : 1
  const turns = Array.from({ length: Math.max(0, child.turnCount - first + 1) }, (_, index) => first + index)
  return {
    turns,
    initialTurn: turns.at(-1) ?? null,
    sides: (turn) => ({ sessionId: parent.id, fromTurn: parentAfter(turn) + 1, toSessionId: child.id, toTurn: turn + 1 }),
    parentPoint: (turn) => {
      const after = parentAfter(turn)
      if (child.kind !== 'branch') return after === 0 ? 'before its first turn' : `after turn ${after}, the turn that started it`
      if (after === 0) return 'before its first turn'
      return after < turn ? `after its last turn (turn ${after})` : `after turn ${after}`
    }
  }
}

/** Whether a session has a parent to compare with, and why not when it has none worth comparing. */
export function compareWithParentReason(detail: Pick<SessionDetail, 'kind' | 'parentId' | 'turnCount' | 'forkTurn'>): string | null {
  if (!detail.parentId || (detail.kind !== 'branch' && detail.kind !== 'sub-agent')) return 'Only a branch or a sub-agent has a parent to compare with.'
  const first = detail.kind === 'branch' ? Math.max(detail.forkTurn ?? 1, 1) : 1
  if (detail.turnCount < first) return 'This branch has no turn of its own yet: its files are its parent’s.'
  return null
}
