import type { Usage } from '../../../shared/contract'

/** One API request the UI recorded (`say: "api_req_started"`, whose text is JSON with the counts). */
export interface ApiRequest {
  ts: number | undefined
  /** The index of the last conversation message sent with it (Cline's `conversationHistoryIndex`). */
  historyIndex: number | undefined
  usage: Partial<Usage>
}

/** What Retrace reads of `ui_messages.json` (`ClineMessage[]`): usage and cost, the model, new files. */
export interface UiFacts {
  requests: ApiRequest[]
  /** `modelInfo.modelId` of the last message that has one (Cline 3.x). */
  model: string | undefined
  /**
   * The UI's row of each file write, in order (`ask: "tool"` when the user approved it, `say:
   * "tool"` when it was auto-approved): `newFileCreated` or an edit, and the path as shown, relative
   * to the workspace when inside it.
   */
  fileRows: FileRow[]
  /** Checkpoint commits of the shadow repository, in order, with where the conversation was (`lastCheckpointHash`). */
  checkpoints: { hash: string; historyIndex: number | undefined; ts: number | undefined }[]
  /**
   * Roo Code's and Kilo Code's checkpoints (`say: "checkpoint_saved"`, text the commit, `checkpoint`
   * `{from, to}`), in order: taken BEFORE a file-changing tool and when the user answers.
   */
  savedCheckpoints: { hash: string; from: string | undefined; ts: number | undefined }[]
  /** A checkpoint restored in the agent, which deleted what came after it (`api_req_deleted`, Cline's `deleted_api_reqs`). */
  restores: { ts: number | undefined; hash: string | undefined; usage: Partial<Usage> | null }[]
  firstTs: number | undefined
  lastTs: number | undefined
  problems: string[]
}

export interface FileRow {
  created: boolean
  path: string
}

/** The UI's tools for a file written (Cline's `ClineSayTool`; Roo Code's and Kilo Code's diff tools). */
const FILE_ROW_TOOLS = new Set(['newFileCreated', 'editedExistingFile', 'appliedDiff', 'insertContent', 'searchAndReplace'])

export function readUiMessages(raw: unknown): UiFacts {
  const facts: UiFacts = { requests: [], model: undefined, fileRows: [], checkpoints: [], savedCheckpoints: [], restores: [], firstTs: undefined, lastTs: undefined, problems: [] }
  if (!Array.isArray(raw)) {
    facts.problems.push('ui_messages.json is not a list of messages; usage and cost not read')
    return facts
  }
  raw.forEach((entry: unknown, index) => {
    if (!isObject(entry)) return facts.problems.push(`ui_messages.json[${index}]: not an object`)
    const ts = typeof entry.ts === 'number' ? entry.ts : undefined
    if (ts !== undefined) {
      facts.firstTs ??= ts
      facts.lastTs = ts
    }
    const modelInfo = entry.modelInfo
    if (isObject(modelInfo) && typeof modelInfo.modelId === 'string') facts.model = modelInfo.modelId
    const text = typeof entry.text === 'string' ? entry.text : undefined
    if (entry.say === 'api_req_started' && text !== undefined) {
      const usage = requestUsage(text)
      if (usage === null) facts.problems.push(`ui_messages.json[${index}]: api_req_started text is not JSON; its usage is not counted`)
      else facts.requests.push({ ts, historyIndex: typeof entry.conversationHistoryIndex === 'number' ? entry.conversationHistoryIndex : undefined, usage })
    }
    if (typeof entry.lastCheckpointHash === 'string' && facts.checkpoints.at(-1)?.hash !== entry.lastCheckpointHash) {
      facts.checkpoints.push({ hash: entry.lastCheckpointHash, historyIndex: typeof entry.conversationHistoryIndex === 'number' ? entry.conversationHistoryIndex : undefined, ts })
    }
    if (entry.say === 'checkpoint_saved' && text !== undefined && facts.savedCheckpoints.at(-1)?.hash !== text) {
      const from = isObject(entry.checkpoint) && typeof entry.checkpoint.from === 'string' ? entry.checkpoint.from : undefined
      facts.savedCheckpoints.push({ hash: text, from, ts })
    }
    if (entry.say === 'api_req_deleted' || entry.say === 'deleted_api_reqs') {
      const hash = facts.savedCheckpoints.at(-1)?.hash ?? facts.checkpoints.at(-1)?.hash
      facts.restores.push({ ts, hash, usage: text === undefined ? null : requestUsage(text) })
    }
    if ((entry.ask === 'tool' || entry.say === 'tool') && entry.partial !== true && text !== undefined) {
      const tool = parseObject(text)
      if (typeof tool?.tool === 'string' && FILE_ROW_TOOLS.has(tool.tool) && typeof tool.path === 'string') facts.fileRows.push({ created: tool.tool === 'newFileCreated', path: tool.path })
    }
  })
  return facts
}

/** `{"request": …, "tokensIn", "tokensOut", "cacheWrites", "cacheReads", "cost"}`; null when not JSON. */
function requestUsage(text: string): Partial<Usage> | null {
  const info = parseObject(text)
  if (!info) return null
  const usage: Partial<Usage> = {}
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined)
  const inputTokens = count(info.tokensIn)
  const outputTokens = count(info.tokensOut)
  const cacheWriteTokens = count(info.cacheWrites)
  const cacheReadTokens = count(info.cacheReads)
  if (inputTokens !== undefined) usage.inputTokens = inputTokens
  if (outputTokens !== undefined) usage.outputTokens = outputTokens
  if (cacheWriteTokens !== undefined) usage.cacheWriteTokens = cacheWriteTokens
  if (cacheReadTokens !== undefined) usage.cacheReadTokens = cacheReadTokens
  if (typeof info.cost === 'number' && Number.isFinite(info.cost) && info.cost >= 0) usage.costUsd = info.cost
  return usage
}

export function addUsage(a: Partial<Usage> | undefined, b: Partial<Usage>): Partial<Usage> {
  const sum = (x: number | null | undefined, y: number | null | undefined) => (x ?? 0) + (y ?? 0)
  const total: Partial<Usage> = {
    inputTokens: sum(a?.inputTokens, b.inputTokens),
    outputTokens: sum(a?.outputTokens, b.outputTokens),
    cacheReadTokens: sum(a?.cacheReadTokens, b.cacheReadTokens),
    cacheWriteTokens: sum(a?.cacheWriteTokens, b.cacheWriteTokens)
  }
  if (a?.costUsd != null || b.costUsd != null) total.costUsd = sum(a?.costUsd, b.costUsd)
  return total
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
