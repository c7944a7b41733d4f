import { assistantRecords, systemNote, usageOf, type Draft, type MessageDraft } from './message-records'
import { isRecord } from '../plain-data'
import { type EntryRow, type ObservationRow, type TraceRow } from './store-db'

/** Turns the trace of a tool call into file-edit drafts (or a skipped draft saying why not). */
export type EditsOf = (entry: EntryRow, written: string | null, toolCallId: string | null) => Draft[]

/**
 * A turn rebuilt from its trace, for turns whose transcript lines do not exist: a turn a rollback
 * took out of both transcripts, or an ephemeral session ("no persistence") whose only record is
 * its trace. The trace keeps the prompt (`user_input`), each model call's response with its tool
 * calls and usage, and each tool call's arguments and result (payloads cut at 160 characters).
 */
export function traceTurn(trace: TraceRow, observations: ObservationRow[], entriesOf: (observationId: string) => EntryRow[], editsOf: EditsOf, options: { invalidated: boolean }): Draft[] {
  const drafts: Draft[] = []
  const base = { kind: 'message' as const, parentUid: null, agentId: null, startsTurn: false }
  const prompt: MessageDraft = {
    ...base,
    uid: `${trace.id}#prompt`,
    startsTurn: true,
    role: 'user',
    content: trace.userInput ?? '',
    ...(trace.startedAt !== undefined ? { createdAt: trace.startedAt } : {}),
    ...(options.invalidated ? { turnInvalidated: true } : {})
  }
  drafts.push(prompt)
  const callIdOf = new Map<string, string>()
  for (const observation of observations) {
    const at = observation.completedAt ?? observation.startedAt
    if (observation.type === 'generation') {
      const output = isRecord(observation.output) ? observation.output : {}
      const children = observations.filter((child) => child.parentId === observation.id && child.type !== 'generation')
      const calls = (Array.isArray(output.tool_calls) ? output.tool_calls.filter(isRecord) : []).map((call, index) => {
        const child = children[index]
        const id = typeof call.id === 'string' && call.id ? call.id : `${observation.id}#${index}`
        if (child) callIdOf.set(child.id, id)
        return { id, name: typeof call.name === 'string' && call.name ? call.name : (child?.name ?? 'tool'), arguments: (child?.input ?? null) }
      })
      const text = typeof output.content === 'string' ? output.content : ''
      if (observation.status !== 'failed' || text || calls.length > 0) {
        drafts.push(...assistantRecords(`${trace.id}#${observation.id}`, text, calls, { ...base, ...(at !== undefined ? { createdAt: at } : {}) }, { model: observation.model ?? (typeof output.model === 'string' ? output.model : null), usage: usageOf(observation) }))
      }
      if (observation.status === 'failed') drafts.push(failureNote(observation))
    } else if (observation.type === 'tool_call' || observation.type === 'sub_agent') {
      const output = isRecord(observation.output) ? observation.output : {}
      const error = observation.error ?? (typeof output.error === 'string' ? output.error : null)
      const content = typeof output.content === 'string' ? output.content : error ?? (observation.output === null ? '' : JSON.stringify(observation.output))
      const callId = callIdOf.get(observation.id) ?? observation.id
      drafts.push({ ...base, uid: `${trace.id}#${observation.id}`, role: 'tool_result', content, toolCallId: callId, toolName: observation.name, isError: observation.status === 'failed', ...(at !== undefined ? { createdAt: at } : {}) })
      const written = isRecord(observation.input) && typeof observation.input.content === 'string' ? observation.input.content : null
      for (const entry of entriesOf(observation.id)) drafts.push(...editsOf(entry, written, callId))
    }
  }
  return drafts
}

/** A model call that failed (a provider error): said in the transcript where the answer would be. */
export function failureNote(observation: ObservationRow): MessageDraft {
  const seconds = observation.startedAt !== undefined && observation.completedAt !== undefined ? ` after ${((observation.completedAt - observation.startedAt) / 1000).toFixed(1)} s` : ''
  return systemNote(`y-agent: the model call failed${seconds}: ${observation.error ?? 'no error message recorded'}`, observation.completedAt ?? observation.startedAt)
}
