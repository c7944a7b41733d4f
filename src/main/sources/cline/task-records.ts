import type { Usage } from '../../../shared/contract'
import type { SourceRecord } from '../records'
import { assistantRecords } from './assistant-records'
import { TaskContext } from './task-context'
import { addUsage, isObject, type ApiRequest, type UiFacts } from './ui-messages'
import { userRecords } from './user-records'

export interface TaskInput {
  taskId: string
  /** `api_conversation_history.json`, parsed. */
  history: unknown
  ui: UiFacts
  /** `task_metadata.json` `model_usage[]`: the last model used (Cline). */
  metadataModel: string | undefined
}

export interface TaskRecords {
  records: SourceRecord[]
  problems: string[]
  startedAt: number | undefined
  cwd: string | undefined
}

/**
 * One task folder as records (pure): the conversation the model saw, each message's offset its
 * index in `api_conversation_history.json`; the usage and cost of each API request from
 * `ui_messages.json` on the answer it produced. Roo Code's condensed-context summary
 * (`isSummary`) is a compaction. A message that is not an object with a role is skipped.
 */
export function taskRecords(input: TaskInput): TaskRecords {
  const problems: string[] = []
  const history = Array.isArray(input.history) ? input.history : []
  if (!Array.isArray(input.history)) problems.push('api_conversation_history.json is not a list of messages')
  const context = new TaskContext(input.taskId, input.ui.model ?? input.metadataModel, input.ui.fileRows.slice())
  const startedAt = startOf(input)
  context.time = startedAt
  const usageAt = input.ui.requests.length > 0 ? usageByAnswer(history, input.ui.requests) : usageOfMetrics(history)
  const leftover = usageAt.get(-1)
  history.forEach((message: unknown, index) => {
    if (!isObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      context.records.push({ kind: 'skipped', offset: index, reason: `api_conversation_history.json[${index}]: not a message with a user or assistant role` })
      return
    }
    if (typeof message.ts === 'number') context.time = message.ts
    if (message.role === 'user') return userRecords(context, index, message.content)
    if (message.isSummary === true) {
      const summary = typeof message.content === 'string' ? message.content : JSON.stringify(message.content)
      context.records.push({ kind: 'compaction', offset: index, uid: context.uid(index), summary, ...(context.time !== undefined ? { createdAt: context.time } : {}) })
      return
    }
    // Cline 3.x keeps the model of each answer beside it (`modelInfo.modelId`).
    if (isObject(message.modelInfo) && typeof message.modelInfo.modelId === 'string') context.envModel = message.modelInfo.modelId
    assistantRecords(context, index, message.content, usageAt.get(index))
  })
  if (leftover) context.records.push({ kind: 'usage', offset: history.length, usage: leftover })
  const meta: SourceRecord = {
    kind: 'session-meta',
    offset: 0,
    sessionId: input.taskId,
    ...(context.firstPrompt ? { title: titleOf(context.firstPrompt), titleOrigin: 'first-prompt' as const } : {}),
    ...(context.cwd ? { cwd: context.cwd } : {}),
    ...(context.model ? { model: context.model } : {}),
    ...(startedAt !== undefined ? { createdAt: startedAt } : {})
  }
  return { records: [meta, ...context.records], problems: [...problems, ...input.ui.problems], startedAt, cwd: context.cwd }
}

/** Cline's task id is the creation time in milliseconds; Roo Code's is a uuid (its UI's first message then). */
function startOf(input: TaskInput): number | undefined {
  if (/^\d{12,14}$/.test(input.taskId)) return Number(input.taskId)
  const first: unknown = Array.isArray(input.history) ? input.history[0] : undefined
  if (isObject(first) && typeof first.ts === 'number') return first.ts
  return input.ui.firstTs
}

/**
 * Which assistant message each API request produced: the first one after the request's
 * `conversationHistoryIndex` (Cline), else the first one at or after its time (Roo Code's messages
 * carry `ts`), else the requests in order. Requests with no answer (failed, cancelled) add up under -1.
 */
function usageByAnswer(history: unknown[], requests: ApiRequest[]): Map<number, Partial<Usage>> {
  const answers = history.flatMap((message, index) => (isObject(message) && message.role === 'assistant' && message.isSummary !== true ? [{ index, ts: typeof message.ts === 'number' ? message.ts : undefined }] : []))
  const usage = new Map<number, Partial<Usage>>()
  let sequential = 0
  for (const request of requests) {
    let answer: number | undefined
    if (request.historyIndex !== undefined) answer = answers.find((candidate) => candidate.index > (request.historyIndex as number))?.index
    else if (request.ts !== undefined && answers.some((candidate) => candidate.ts !== undefined)) answer = answers.find((candidate) => candidate.ts !== undefined && candidate.ts >= (request.ts as number))?.index
    else answer = answers[sequential++]?.index
    const key = answer ?? -1
    usage.set(key, addUsage(usage.get(key), request.usage))
  }
  return usage
}

/**
 * Without the UI's requests (no ui_messages.json, or one without api_req_started rows), each
 * answer's own `metrics` (Cline 3.x, src/core/task/index.ts): `tokens.prompt` the input not read
 * from the cache, `tokens.completion` the output, `tokens.cached` the cache writes and reads added
 * together (Cline does not keep them apart: counted as reads), `cost` when the provider gave one.
 */
function usageOfMetrics(history: unknown[]): Map<number, Partial<Usage>> {
  const usage = new Map<number, Partial<Usage>>()
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0)
  history.forEach((message, index) => {
    if (!isObject(message) || message.role !== 'assistant' || !isObject(message.metrics)) return
    const tokens = isObject(message.metrics.tokens) ? message.metrics.tokens : {}
    const cost = message.metrics.cost
    usage.set(index, {
      inputTokens: count(tokens.prompt),
      outputTokens: count(tokens.completion),
      cacheReadTokens: count(tokens.cached),
      cacheWriteTokens: 0,
      ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {})
    })
  })
  return usage
}

function titleOf(prompt: string): string {
  const line = prompt.split('\n').find((text) => text.trim()) ?? prompt
  const title = line.replace(/^#+\s*/, '').trim()
  return title.length > 120 ? `${title.slice(0, 117)}…` : title
}
