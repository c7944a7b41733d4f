import type { FileEditRecord, SubAgentLinkRecord } from '../records'
import { oneLine } from './content'
import { applyStringEdit, applyStructuredPatch, formatHunks } from './patch'
import { AgentResultSchema, type FileEditResult, FileEditResultSchema } from './schema'

/** Tools whose results report a file's content before and after. */
export const FILE_EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit'])

/**
 * The file change a tool result reports, or null when `toolUseResult` is not an Edit / Write /
 * MultiEdit result. `toolName` is the name of the call the result answers, when it is known: a
 * result of another tool with a similar shape (ExitPlanMode also reports a `filePath`) is not a
 * file edit.
 */
export function fileEditRecord(
  toolUseResult: unknown,
  toolName: string | undefined,
  toolCallId: string | null,
  offset: number
): FileEditRecord | null {
  if (toolName !== undefined && !FILE_EDIT_TOOLS.has(toolName)) return null
  const parsed = FileEditResultSchema.safeParse(toolUseResult)
  if (!parsed.success) return null
  const result = parsed.data
  const base: FileEditRecord = { kind: 'file-edit', offset, toolCallId, path: result.filePath }
  const isWrite = toolName === 'Write' || result.type === 'create' || result.type === 'update'
  if (isWrite && typeof result.content === 'string') return { ...base, ...writeContents(result, result.content) }
  const isEdit = result.structuredPatch != null || typeof result.oldString === 'string' || result.edits != null
  if (!isEdit) return null
  return { ...base, ...editContents(result) }
}

/** Write: `after` is the content written; `before` the file it replaced (null: created). */
function writeContents(result: FileEditResult, content: string): Pick<FileEditRecord, 'before' | 'after' | 'patch'> {
  if (result.type === 'create') return { before: null, after: content }
  const original = result.originalFile !== undefined ? result.originalFile : result.originalFileContents
  if (original !== undefined) return { before: original, after: content }
  // An update whose old content was not recorded: the patch is all there is of "before".
  const patch = result.structuredPatch?.length ? formatHunks(result.structuredPatch) : undefined
  return patch ? { after: content, patch } : { after: content }
}

/**
 * Edit / MultiEdit: `before` is `originalFile`; `after` is rebuilt by applying `structuredPatch`
 * (what the tool computed from the file it actually wrote, so it also covers a user's
 * modification of the proposal), or, failing that, by repeating the string replacement(s).
 * Without `originalFile` only the patch text is kept.
 */
function editContents(result: FileEditResult): Pick<FileEditRecord, 'before' | 'after' | 'patch'> {
  const original = result.originalFile !== undefined ? result.originalFile : result.originalFileContents
  const hunks = result.structuredPatch ?? []
  const patch = hunks.length ? formatHunks(hunks) : undefined
  if (original === undefined) {
    if (patch) return { patch }
    // Nothing but the strings: a pseudo-patch is still better than nothing for the reader.
    if (typeof result.oldString === 'string' && typeof result.newString === 'string') {
      return { patch: formatStringEdit(result.oldString, result.newString) }
    }
    return {}
  }
  const after = rebuild(original, result)
  if (after !== null) return { before: original, after }
  return patch ? { before: original, patch } : { before: original }
}

function rebuild(original: string | null, result: FileEditResult): string | null {
  const hunks = result.structuredPatch ?? []
  if (hunks.length) {
    const patched = applyStructuredPatch(original ?? '', hunks)
    if (patched !== null) return patched
  }
  const edits =
    result.edits ??
    (typeof result.oldString === 'string' && typeof result.newString === 'string'
      ? [{ old_string: result.oldString, new_string: result.newString, replace_all: result.replaceAll }]
      : [])
  // An empty structuredPatch and no strings: the tool changed nothing.
  if (edits.length === 0) return result.structuredPatch && hunks.length === 0 ? original : null
  let text: string | null = original ?? ''
  for (const edit of edits) {
    text = applyStringEdit(text, edit.old_string, edit.new_string, edit.replace_all === true)
    if (text === null) return null
  }
  return text
}

function formatStringEdit(oldString: string, newString: string): string {
  const lines = (text: string, mark: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n').map((line) => mark + line))
  return ['@@', ...lines(oldString, '-'), ...lines(newString, '+')].join('\n')
}

/**
 * A Task (Agent) result that names the sub-agent it ran: `toolUseResult.agentId`. The
 * description is the one the call gave (`description` input), else the result's own, else the
 * start of the prompt.
 */
export function subAgentLinkRecord(
  toolUseResult: unknown,
  toolCallId: string,
  callDescription: string | null | undefined,
  offset: number
): SubAgentLinkRecord | null {
  const parsed = AgentResultSchema.safeParse(toolUseResult)
  if (!parsed.success) return null
  const description = callDescription ?? parsed.data.description ?? (parsed.data.prompt ? oneLine(parsed.data.prompt, 120) : null)
  const link: SubAgentLinkRecord = { kind: 'sub-agent-link', offset, toolCallId, agentId: parsed.data.agentId }
  if (description) link.description = description
  return link
}

/** The tools that start a sub-agent: `Task`, renamed `Agent` in 2.1. */
export function isAgentTool(name: string): boolean {
  return name === 'Task' || name === 'Agent'
}

/** `agentId: a4ca7529859c158c2 (use SendMessage with to: …)` in the text Claude Code returns to the model. */
const AGENT_ID_IN_TEXT = /\bagentId: ([A-Za-z0-9_-]{4,64})\b/

/**
 * The sub-agent a Task/Agent result names in its text, for results without a structured
 * `toolUseResult.agentId`: since 2.1 the text the model reads ends with `agentId: <id>` (so it
 * can message the agent), also for agents started in the background or as teammates.
 */
export function textAgentLink(text: string, toolCallId: string, description: string | null, offset: number): SubAgentLinkRecord | null {
  const agentId = AGENT_ID_IN_TEXT.exec(text)?.[1]
  if (!agentId) return null
  return { kind: 'sub-agent-link', offset, toolCallId, agentId, ...(description ? { description } : {}) }
}

/** The name a `Workflow` call's result gives its run's agents in the session's links. */
export function workflowLink(runId: string): string {
  return `workflow:${runId}`
}

/**
 * A `Workflow` result (`toolUseResult.runId`: the run whose agents Claude Code writes to
 * `subagents/workflows/<runId>/`): its agents are known to discovery by the run, not yet by id.
 */
export function workflowRunLink(toolUseResult: unknown, toolName: string | undefined, toolCallId: string, offset: number): SubAgentLinkRecord | null {
  if (toolName !== 'Workflow' || toolUseResult === null || typeof toolUseResult !== 'object') return null
  const runId = (toolUseResult as { runId?: unknown }).runId
  if (typeof runId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(runId)) return null
  return { kind: 'sub-agent-link', offset, toolCallId, agentId: workflowLink(runId) }
}
