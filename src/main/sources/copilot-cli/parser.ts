import type { LineParser, SourceRecord } from '../records'
import { legacyMessages } from './legacy-import'
import { assistantMessage, message, str, toolCall, toolResult, userMessage, type CopilotEvent, type Data } from './events'
import { restoreState, type ParserState } from './parser-state'
import { withSnapshotBefore } from './snapshot-before'
import type { BeforeLookup } from './rewind-snapshots'
import { sessionEvent } from './session-events'

/**
 * Copilot CLI's `events.jsonl` (and the single-file `<id>.jsonl` of older releases): one event a
 * line, `{type, data, id, timestamp, parentId, agentId?, ephemeral?}`. Append-only while the
 * session runs; `/rewind` rewrites it shorter (the importer then reads it again). Pure but for
 * `beforeOf`, which reads the content files had at a prompt from Copilot's rewind snapshots.
 */
export function createCopilotParser(saved?: unknown, beforeOf?: BeforeLookup): LineParser {
  const state = restoreState(saved)
  return {
    feed: (line, offset) => withSnapshotBefore(state, feedLine(state, line, offset), beforeOf),
    state: () => state
  }
}

function feedLine(state: ParserState, line: string, offset: number): SourceRecord[] {
  if (line.trim() === '') return []
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch {
    return [{ kind: 'skipped', offset, reason: 'not a JSON line (cut short?)' }]
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return [{ kind: 'skipped', offset, reason: 'not a JSON object' }]
  const raw = json as Data
  const type = raw.type
  if (typeof type !== 'string') return [{ kind: 'skipped', offset, reason: 'event without a type' }]
  // Ephemeral events (streaming deltas, progress) are not meant to be kept: the complete ones follow.
  if (raw.ephemeral === true) return []
  const data = raw.data && typeof raw.data === 'object' && !Array.isArray(raw.data) ? (raw.data as Data) : {}
  const time = typeof raw.timestamp === 'string' ? Date.parse(raw.timestamp) : NaN
  const agent = subAgentKey(state, raw, data)
  const event: CopilotEvent = { type, id: typeof raw.id === 'string' ? raw.id : null, data, createdAt: Number.isNaN(time) ? undefined : time, agent, offset }
  return [...subAgentLink(state, event), ...conversationEvent(state, event)]
}

function conversationEvent(state: ParserState, event: CopilotEvent): SourceRecord[] {
  const { data } = event
  switch (event.type) {
    case 'user.message':
      return userMessage(subAgentPrompt(state, event), state)
    case 'assistant.reasoning': {
      const content = str(data, 'content') ?? ''
      if (content.trim() === '') return []
      state.reasoningSeen = true
      return [message(event, 'reasoning', content)]
    }
    case 'assistant.message':
      return assistantMessage(event, state)
    case 'tool.execution_start': {
      const id = str(data, 'toolCallId')
      const name = str(data, 'toolName')
      return id && name ? toolCall(event, state, id, name, data.arguments) : []
    }
    case 'tool.user_requested': {
      const id = str(data, 'toolCallId')
      const name = str(data, 'toolName')
      return id && name ? toolCall(event, state, id, name, data.arguments) : []
    }
    case 'tool.execution_complete':
      return toolResult(event, state, state.cwd)
    case 'subagent.started': {
      const id = str(data, 'toolCallId')
      const title = str(data, 'agentDescription') ?? str(data, 'agentDisplayName') ?? str(data, 'agentName')
      if (id && title) state.agentTitles[id] = title
      return id ? linkFor(state, event, id, id) : []
    }
    case 'session.import_legacy':
      return legacyMessages(event, state)
    case 'subagent.completed':
    case 'subagent.failed': {
      // A background sub-agent opens after its `task` call returned: its prompt is awaited until it ends.
      const id = str(data, 'toolCallId')
      if (id) delete state.taskPrompts[id]
      return []
    }
    default:
      return sessionEvent(state, event)
  }
}

/**
 * Which sub-agent an event belongs to, keyed by the `task` call that runs it: its messages and
 * tools name that call (`parentToolCallId`, the only mark before `agentId` existed); newer
 * releases stamp every event with the sub-agent's `agentId` too, which is mapped to the call once
 * an event carries both. Null: the main agent.
 */
function subAgentKey(state: ParserState, raw: Data, data: Data): string | null {
  const parentCall = str(data, 'parentToolCallId')
  const agentId = typeof raw.agentId === 'string' && raw.agentId !== '' ? raw.agentId : undefined
  if (agentId && parentCall) state.callByAgent[agentId] = parentCall
  return parentCall ?? (agentId ? (state.callByAgent[agentId] ?? agentId) : null)
}

/** The first event of a sub-agent naming its call links the child session to that call. */
function subAgentLink(state: ParserState, event: CopilotEvent): SourceRecord[] {
  return event.agent !== null && str(event.data, 'parentToolCallId') ? linkFor(state, event, event.agent, event.agent) : []
}

/**
 * A sub-agent's opening prompt carries no mark of its agent (seen with 1.0.8x): it is the `task`
 * call's `prompt`, written once the sub-agent started. It goes to the sub-agent, not the main line.
 */
function subAgentPrompt(state: ParserState, event: CopilotEvent): CopilotEvent {
  if (event.agent !== null) return event
  const content = str(event.data, 'content')
  const call = Object.keys(state.taskPrompts).find((id) => state.taskPrompts[id] === content && state.linked.includes(id))
  if (call === undefined) return event
  delete state.taskPrompts[call]
  return { ...event, agent: call }
}

function linkFor(state: ParserState, event: CopilotEvent, agent: string | null, toolCallId: string | null): SourceRecord[] {
  if (agent === null || toolCallId === null || state.linked.includes(agent)) return []
  state.linked.push(agent)
  const description = state.agentTitles[toolCallId]
  return [{ kind: 'sub-agent-link', offset: event.offset, toolCallId, agentId: agent, ...(description ? { description } : {}) }]
}

