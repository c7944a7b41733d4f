// Small builders of the records the Codex parser emits, and the line timestamp reader.
import type { CompactionRecord, MessageRecord } from '../records'

export function messageRecord(
  offset: number,
  role: MessageRecord['role'],
  content: string,
  createdAt: number | undefined,
  extra: Partial<MessageRecord> = {}
): MessageRecord {
  const record: MessageRecord = {
    kind: 'message',
    offset,
    uid: null,
    parentUid: null,
    agentId: null,
    startsTurn: false,
    role,
    content,
    ...extra
  }
  if (createdAt !== undefined) record.createdAt = createdAt
  return record
}

export function compactionRecord(offset: number, summary: string, createdAt: number | undefined): CompactionRecord {
  const record: CompactionRecord = { kind: 'compaction', offset, uid: null, summary }
  if (createdAt !== undefined) record.createdAt = createdAt
  return record
}

export function parseTime(value: string | undefined): number | undefined {
  if (!value) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? ms : undefined
}
