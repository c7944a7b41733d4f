/**
 * CianaParrot's thread ids (seed 000, "Thread ID Format"): `{channel}_{chat_id}` for a chat's
 * first session, `{channel}_{chat_id}_s{N}` after its N-th `/new`, `scheduler_{task_id}` for a
 * scheduled task's runs.
 */
export type ThreadId =
  | { kind: 'chat'; channel: string; chatId: string; baseKey: string; session: number }
  | { kind: 'scheduler'; taskId: string }
  | { kind: 'other' }

export function parseThreadId(threadId: string): ThreadId {
  const scheduler = /^scheduler_(.+)$/.exec(threadId)
  if (scheduler?.[1]) return { kind: 'scheduler', taskId: scheduler[1] }
  const chat = /^([a-z][a-z0-9-]*)_(-?[^_]+)(?:_s(\d+))?$/i.exec(threadId)
  if (chat?.[1] && chat[2]) return { kind: 'chat', channel: chat[1], chatId: chat[2], baseKey: `${chat[1]}_${chat[2]}`, session: chat[3] ? Number(chat[3]) : 0 }
  return { kind: 'other' }
}

/** The thread a reset thread continues: `_s1` continues the first session, `_sN` the `_s(N-1)`. */
export function previousThreadId(id: ThreadId): string | null {
  if (id.kind !== 'chat' || id.session === 0) return null
  return id.session === 1 ? id.baseKey : `${id.baseKey}_s${id.session - 1}`
}
