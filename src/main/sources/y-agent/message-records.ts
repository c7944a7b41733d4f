import type { Usage } from '../../../shared/contract'
import type { MessageRecord, SourceRecord } from '../records'
import type { FileEdit } from './file-snapshots'
import type { ObservationRow } from './store-db'
import type { TranscriptLine } from './transcripts'

type WithoutOffset<T> = T extends unknown ? Omit<T, 'offset'> : never

/** A record before the session's assembly gives it its offset. */
export type Draft = WithoutOffset<SourceRecord>

export type MessageDraft = Omit<MessageRecord, 'offset'>

/** What a line needs from elsewhere: its model call's usage, the names of the tools called, whether a tool failed. */
export interface LineFacts {
  usage?: Partial<Usage>
  model?: string | null
  toolNames: Map<string, string>
  failed?: boolean
}

/**
 * One transcript line as display records: a user prompt opens a turn; an assistant message is
 * its text and then one record per tool call; a tool message is the result of the call it names.
 * The message id goes on the first record and `<id>#<call id>` on each further tool call, so a
 * branch's copy of its parent's lines is recognised record by record.
 */
export function lineRecords(line: TranscriptLine, facts: LineFacts): MessageDraft[] {
  const base = { kind: 'message' as const, parentUid: null, agentId: null, startsTurn: false, ...(line.timestamp !== undefined ? { createdAt: line.timestamp } : {}) }
  switch (line.role) {
    case 'user':
      return [{ ...base, uid: line.messageId, startsTurn: true, role: 'user', content: line.content }]
    case 'system':
      return [{ ...base, uid: line.messageId, role: 'system', content: line.content }]
    case 'tool':
      return [
        {
          ...base,
          uid: line.messageId,
          role: 'tool_result',
          content: line.content,
          ...(line.toolCallId ? { toolCallId: line.toolCallId } : {}),
          ...(line.toolCallId && facts.toolNames.has(line.toolCallId) ? { toolName: facts.toolNames.get(line.toolCallId) } : {}),
          isError: facts.failed ?? false
        }
      ]
    case 'assistant':
      return assistantRecords(line.messageId, line.content, line.toolCalls, { ...base }, { model: line.model ?? facts.model ?? null, usage: facts.usage })
  }
}

/** An assistant message: its text (when it has any, or calls nothing), then each tool call; usage on the first. */
export function assistantRecords(
  messageId: string | null,
  text: string,
  calls: { id: string; name: string; arguments: unknown }[],
  base: Pick<MessageDraft, 'kind' | 'parentUid' | 'agentId' | 'startsTurn' | 'createdAt'>,
  facts: { model: string | null; usage: Partial<Usage> | undefined }
): MessageDraft[] {
  const records: MessageDraft[] = []
  const model = facts.model ? { model: facts.model } : {}
  const uidFor = (call: { id: string } | null) => (messageId === null ? null : records.length === 0 ? messageId : `${messageId}#${call?.id || String(records.length)}`)
  const usage = () => (records.length === 0 && facts.usage ? { usage: facts.usage } : {})
  if (text || calls.length === 0) records.push({ ...base, uid: uidFor(null), role: 'assistant', content: text, ...model, ...usage() })
  for (const call of calls) {
    records.push({ ...base, uid: uidFor(call), role: 'tool_call', content: '', toolName: call.name, ...(call.id ? { toolCallId: call.id } : {}), toolInput: call.arguments ?? null, ...model, ...usage() })
  }
  return records
}

/** The uid of the last record a line becomes: where a branch that shares the line forks off. */
export function lastUidOf(line: TranscriptLine): string | null {
  return lineRecords(line, { toolNames: new Map() }).at(-1)?.uid ?? null
}

/** Usage and cost of one model call (a `generation` observation), cache tokens from its metadata. */
export function usageOf(observation: ObservationRow): Partial<Usage> {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0)
  return {
    inputTokens: observation.inputTokens,
    outputTokens: observation.outputTokens,
    cacheReadTokens: count(observation.metadata.cache_read_tokens),
    cacheWriteTokens: count(observation.metadata.cache_write_tokens),
    costUsd: observation.costUsd
  }
}

export function addUsage(a: Partial<Usage> | undefined, b: Partial<Usage>): Partial<Usage> {
  if (!a) return b
  const sum = (x: number | null | undefined, y: number | null | undefined) => (x ?? 0) + (y ?? 0)
  return {
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    cacheReadTokens: sum(a.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: sum(a.cacheWriteTokens, b.cacheWriteTokens),
    costUsd: sum(a.costUsd, b.costUsd)
  }
}

export function editDrafts(edits: FileEdit[], toolCallId: string | null, pathFor: (path: string) => string): Draft[] {
  return edits.map((edit) => ({ kind: 'file-edit', toolCallId, path: pathFor(edit.path), before: edit.before, after: edit.after }))
}

export function systemNote(content: string, createdAt: number | undefined): MessageDraft {
  return { kind: 'message', uid: null, parentUid: null, agentId: null, startsTurn: false, role: 'system', content, ...(createdAt !== undefined ? { createdAt } : {}) }
}
