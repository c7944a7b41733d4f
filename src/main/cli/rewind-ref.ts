import { RetraceError } from '../../shared/contract'
import type { RewindRepository } from '../store/repositories/rewinds'
import { formatTime, table } from './format'

/**
 * The rewind a command-line argument names: its whole id, or its start (at least 4 characters),
 * as session ids are taken (session-ref.ts). A start several rewinds share is refused with them
 * listed, never guessed.
 */
export function resolveRewindRef(rewinds: RewindRepository, ref: string): string {
  const exact = rewinds.get(ref)
  if (exact) return exact.id
  const meant = rewinds.matching(ref)
  const [only] = meant
  if (only && meant.length === 1) return only.id
  if (meant.length === 0) throw new RetraceError('NOT_FOUND', `No rewind with id ${ref}. \`retrace rewinds <session-id>\` lists a session's rewinds with their ids; the first characters of an id work too.`)
  const rows = meant.map((rewind) => [rewind.id, rewind.status, formatTime(rewind.createdAt), rewind.sessionTitle ?? (rewind.sessionId === null ? '(one file restored)' : '(untitled)')])
  throw new RetraceError('VALIDATION', `"${ref}" could mean ${meant.length} rewinds; give the id of one:\n${table(['id', 'status', 'when', 'session'], rows)}`)
}
