import type { ChildRef, SessionDetail } from '../../../../shared/contract'
import { turnAtSeq } from '../../../../shared/source-labels'

const none: readonly ChildRef[] = []

/**
 * Where the session's branches leave it, by turn: the turn whose checkpoint opens at or before
 * each branch's fork point (a Retrace fork "from before turn 4" starts at turn 4's first message).
 */
export function branchesByTurn(detail: Pick<SessionDetail, 'children' | 'checkpoints'> | undefined): ReadonlyMap<number, readonly ChildRef[]> {
  const byTurn = new Map<number, ChildRef[]>()
  for (const child of detail?.children ?? []) {
    if (child.kind !== 'branch' || child.forkSeq === null) continue
    const turn = turnAtSeq(detail?.checkpoints ?? [], child.forkSeq)
    if (turn === undefined) continue
    byTurn.set(turn, [...(byTurn.get(turn) ?? []), child])
  }
  return byTurn
}

/** The sub-agents the session's tool calls started, by the call's seq (where each hangs). */
export function subAgentsBySeq(detail: Pick<SessionDetail, 'children'> | undefined): ReadonlyMap<number, readonly ChildRef[]> {
  const bySeq = new Map<number, ChildRef[]>()
  for (const child of detail?.children ?? []) {
    if (child.kind !== 'sub-agent' || child.forkSeq === null) continue
    bySeq.set(child.forkSeq, [...(bySeq.get(child.forkSeq) ?? []), child])
  }
  return bySeq
}

export function childrenAt<K>(map: ReadonlyMap<K, readonly ChildRef[]>, key: K): readonly ChildRef[] {
  return map.get(key) ?? none
}

/**
 * The sub-agents a call's row links: those hanging at the call, or at its result (Retrace's own
 * recorder hangs a sub-agent at the parent's last message when it starts, the call's result).
 */
export function subAgentsOfRow(bySeq: ReadonlyMap<number, readonly ChildRef[]>, callSeq: number, resultSeq: number | null): readonly ChildRef[] {
  const atCall = childrenAt(bySeq, callSeq)
  return atCall.length > 0 || resultSeq === null ? atCall : childrenAt(bySeq, resultSeq)
}
