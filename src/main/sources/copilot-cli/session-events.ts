import type { SourceRecord } from '../records'
import { message, str, type CopilotEvent, type Data } from './events'
import { zeroTotals, type ParserState, type Totals } from './parser-state'

// Events about the session rather than the conversation: where it runs, its model, compactions,
// errors, and the usage totals written when the process ends.

export function sessionEvent(state: ParserState, event: CopilotEvent): SourceRecord[] {
  const { data, offset } = event
  switch (event.type) {
    case 'session.start':
    case 'session.resume': {
      state.counted = zeroTotals() // `session.shutdown` totals cover one process's run
      const context = (data.context ?? {}) as Data
      const cwd = str(context, 'cwd')
      const model = str(data, 'selectedModel')
      if (cwd) state.cwd = cwd
      if (model) state.model = model
      const sessionId = event.type === 'session.start' ? str(data, 'sessionId') : undefined
      state.copilotVersion = str(data, 'copilotVersion') ?? state.copilotVersion
      const branch = str(context, 'branch')
      return [{ kind: 'session-meta', offset, ...(sessionId ? { sessionId } : {}), ...(cwd ? { cwd } : {}), ...(model ? { model } : {}), ...(branch ? { gitBranch: branch } : {}), ...(event.createdAt !== undefined && event.type === 'session.start' ? { createdAt: event.createdAt } : {}) }]
    }
    case 'session.context_changed': {
      const cwd = str(data, 'cwd')
      if (cwd) state.cwd = cwd
      return cwd ? [{ kind: 'session-meta', offset, cwd }] : []
    }
    case 'session.model_change': {
      const model = str(data, 'newModel')
      if (model) state.model = model
      return model ? [{ kind: 'session-meta', offset, model }] : []
    }
    case 'session.compaction_complete': {
      const summary = str(data, 'summaryContent')
      if (data.success === false || !summary) return []
      const preTokens = typeof data.preCompactionTokens === 'number' ? data.preCompactionTokens : undefined
      return [{ kind: 'compaction', offset, uid: event.id, summary, ...(event.createdAt !== undefined ? { createdAt: event.createdAt } : {}), ...(preTokens !== undefined ? { preTokens } : {}) }]
    }
    case 'session.error':
      return [message(event, 'system', `Error${str(data, 'errorType') ? ` (${str(data, 'errorType')})` : ''}: ${str(data, 'message') ?? ''}`)]
    case 'abort':
      return [message(event, 'system', `Aborted: ${str(data, 'reason') ?? ''}`)]
    case 'session.shutdown':
      return shutdownUsage(state, event)
    default:
      // Progress and bookkeeping Copilot CLI writes besides the conversation: left out on purpose.
      if (EVENTS_LEFT_OUT.has(event.type) || LEFT_OUT_FAMILIES.test(event.type)) return []
      return [{ kind: 'unread', offset, what: `event "${event.type}"`, agentVersion: state.copilotVersion }]
  }
}

/** Events of its writer that hold no conversation (streaming deltas, turn and tool bookkeeping). */
const EVENTS_LEFT_OUT: ReadonlySet<string> = new Set([
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.message_start',
  'assistant.message_delta',
  'tool.execution_partial_result',
  'session.mcp_servers_loaded',
  'session.tools_updated',
  'session.idle',
  'session.compaction_start'
])

/** Hooks run around tools and prompts (`hook.start`, `hook.end`…) and tool permission asks and answers. */
const LEFT_OUT_FAMILIES = /^(?:hook|permission)\./

/**
 * `session.shutdown` sums each model's tokens over the run; the messages carried only their
 * output tokens. Its input includes the cache reads and writes it lists beside it: taken out. What the messages did not count (input, cache, any output not on a message) is
 * added to the session as one usage record, so its totals match Copilot's own.
 */
function shutdownUsage(state: ParserState, event: CopilotEvent): SourceRecord[] {
  const metrics = event.data.modelMetrics
  if (!metrics || typeof metrics !== 'object') return []
  const total: Totals = zeroTotals()
  for (const metric of Object.values(metrics as Record<string, unknown>)) {
    const usage = ((metric ?? {}) as Data).usage as Data | undefined
    if (!usage) continue
    const model = zeroTotals()
    for (const key of Object.keys(model) as (keyof Totals)[]) {
      const value = usage[key]
      if (typeof value === 'number' && value > 0) model[key] = Math.round(value)
    }
    // Copilot's inputTokens count the cached prompt too (`inputTokens` = fresh + cache reads + cache
    // writes, as on real sessions: 71282 = 4 + 35495 + 35783); Retrace's input is the fresh part.
    const cached = model.cacheReadTokens + model.cacheWriteTokens
    if (model.inputTokens >= cached) model.inputTokens -= cached
    for (const key of Object.keys(total) as (keyof Totals)[]) total[key] += model[key]
  }
  const rest: Partial<Totals> = {}
  for (const key of Object.keys(total) as (keyof Totals)[]) {
    const more = total[key] - state.counted[key]
    if (more > 0) rest[key] = more
  }
  state.counted = zeroTotals()
  return Object.keys(rest).length > 0 ? [{ kind: 'usage', offset: event.offset, usage: rest, ...(event.createdAt !== undefined ? { createdAt: event.createdAt } : {}) }] : []
}
