import { RetraceError } from '../../shared/contract'
import type { SessionRecord, SessionRepository } from '../store/repositories/sessions'
import { formatTime, table } from './format'

/**
 * The session a command-line argument names. Besides Retrace's own id it accepts what a person
 * has at hand: the agent's session id (the one a hook passed to `checkpoint --session`, or the
 * Claude Code / Codex id of an imported session) and the start of either id, as git accepts the
 * start of a hash. An argument that fits several sessions is refused with the candidates listed,
 * never guessed: an agent's whole id does not win over a Retrace id it starts, and an imported
 * session and the same one seen by hooks share the agent's id.
 */
export function resolveSessionRef(sessions: SessionRepository, ref: string): string {
  const exact = sessions.get(ref)
  if (exact) return exact.id
  const matches = sessions.matching(ref)
  // A whole agent id is not meant as the start of others (a Claude Code sub-agent's id extends
  // its session's); it is not preferred to a Retrace id it starts either: both are listed.
  const wholeAgentId = matches.some((session) => session.sourceSessionId === ref)
  const meant = wholeAgentId ? matches.filter((session) => session.sourceSessionId === ref || session.id.startsWith(ref)) : matches
  const [only] = meant
  if (only && meant.length === 1) return only.id
  if (meant.length === 0) {
    throw new RetraceError('NOT_FOUND', `No session with id ${ref}. \`retrace sessions <workspace-path>\` lists the ids; the agent's own session id, or the first characters of an id, work too.`)
  }
  const rows = meant.map((session) => [session.id, session.source, formatTime(session.updatedAt), describe(session)])
  throw new RetraceError('VALIDATION', `"${ref}" could mean ${meant.length} sessions; give the id of one:\n${table(['id', 'source', 'updated', 'title'], rows)}`)
}

function describe(session: SessionRecord): string {
  return `${session.title || '(untitled)'}${session.sourceSessionId ? ` (agent id ${session.sourceSessionId})` : ''}`
}
