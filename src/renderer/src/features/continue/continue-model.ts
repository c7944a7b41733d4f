import type { SessionDetail } from '../../../../shared/contract'

export type ResumableAgent = 'claude-code' | 'codex'

/** What the header offers for a session: continue it in its agent, say it is Retrace-only, or nothing. */
export type ContinueOffer = { kind: 'agent'; agent: ResumableAgent; label: string } | { kind: 'retrace-only' } | { kind: 'none' }

const AGENT_NAMES: Record<ResumableAgent, string> = { 'claude-code': 'Claude Code', codex: 'Codex' }

export function agentName(agent: ResumableAgent): string {
  return AGENT_NAMES[agent]
}

/**
 * Claude Code and Codex sessions (their sub-agents and branches too, Retrace's among them: a
 * Retrace fork keeps its parent's source) can be written back for their agent to resume. A
 * branch of any other source lives only in Retrace, and says so; other sessions offer nothing.
 */
export function continueOffer(detail: Pick<SessionDetail, 'source' | 'kind' | 'turnCount'>): ContinueOffer {
  if ((detail.source === 'claude-code' || detail.source === 'codex') && detail.turnCount > 0) {
    return { kind: 'agent', agent: detail.source, label: `Continue in ${agentName(detail.source)}` }
  }
  return detail.kind === 'branch' ? { kind: 'retrace-only' } : { kind: 'none' }
}
