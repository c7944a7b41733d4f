import { blocksOf } from './assistant-records'
import { editOf, shellCommandsOf, type ToolCall } from './file-edits'
import { clineFileTools } from './file-tools'
import type { TaskContext } from './task-context'
import { fileKey, patchedFilesOf, readContentOf, savedContentOf, undoSearchReplace } from './saved-content'
import { toolResultHeader } from './xml-tools'

/** The words the user typed, as Cline and its forks wrap them in a user message. */
const PROMPT_TAGS = ['task', 'user_message', 'feedback', 'answer']
const SUBTASK_REPORT = /^\s*\[new_task completed\] Result:/
/** The tools whose call writes one file and whose UI shows a row for it (Cline, Roo Code, Kilo Code). */
const WRITE_TOOLS = new Set(['write_to_file', 'replace_in_file', 'new_rule', 'apply_diff', 'insert_content', 'search_and_replace'])
const FAILED = /The tool execution failed with the following error|The user denied this operation|^\s*<error>/

interface PendingResult {
  call: ToolCall | undefined
  name: string | null
  id: string | null
  parts: string[]
  isError: boolean
}

/**
 * One user message of `api_conversation_history.json`: tool results (native `tool_result` blocks,
 * or text blocks headed `[tool for 'x'] Result:` and the blocks after them), the user's own words
 * (`<task>`, `<user_message>`, `<feedback>`, `<answer>`: each opens a turn), and the
 * `<environment_details>` Cline appends (shown as a system message: it is context the model saw).
 * A result that went through carries its tool call's file edit or shell command.
 */
export function userRecords(context: TaskContext, index: number, content: unknown): void {
  let pending: PendingResult | null = null
  const flush = () => {
    if (pending) finishResult(context, index, pending)
    pending = null
  }
  for (const block of blocksOf(content)) {
    if (block.type === 'tool_result') {
      flush()
      const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : null
      const call = context.answer(id, null)
      pending = { call, name: call?.name ?? null, id, parts: [resultText(block.content)], isError: block.is_error === true }
      flush()
    } else if (block.type === 'text' && typeof block.text === 'string') {
      const text = block.text
      const header = toolResultHeader(text)
      if (text.trimStart().startsWith('<environment_details>')) {
        flush()
        environment(context, index, text)
      } else if (header !== null && SUBTASK_REPORT.test(text)) {
        // Roo Code hands a finished sub-task's report to its parent this way: no call asked for it.
        flush()
        context.message(index, { role: 'system', content: text.trim() })
      } else if (header !== null) {
        flush()
        pending = { call: context.answer(null, header), name: header, id: null, parts: [text], isError: false }
      } else if (pending) {
        pending.parts.push(text)
      } else {
        prompt(context, index, text)
      }
    } else if (block.type === 'file' && typeof block.path === 'string' && typeof block.content === 'string') {
      // Cline 4 attaches an @-mentioned file whole: its content before the task's edits.
      if (!context.knownFiles.has(block.path)) context.knownFiles.set(block.path, block.content)
      context.message(index, { role: 'system', content: `Attached file ${block.path} (${block.content.length} characters)` })
    }
  }
  flush()
}

function finishResult(context: TaskContext, index: number, pending: PendingResult): void {
  const content = pending.parts.join('\n\n')
  const isError = pending.isError || FAILED.test(content)
  const call = pending.call
  const own = context.message(index, { role: 'tool_result', content, ...(pending.name ? { toolName: pending.name } : {}), ...(isError ? { isError } : {}) })
  own.toolCallId = call?.id ?? pending.id ?? own.uid ?? undefined
  if (call) fileResult(context, index, call, content, isError)
  // The user's words inside a result (feedback on a completion, an answer to a question) open a turn.
  for (const tag of ['feedback', 'answer']) {
    const words = tagged(content, tag)
    if (words) userPrompt(context, index, words)
  }
}

/**
 * What a result says of the files its call touched. A write takes the UI's row for its file (it
 * had one, approved or not); one that went through is journaled: from the file as saved when the
 * result carries it (Cline 3.x), else from the call's own input. A `read_file` result is the
 * file's content at that point, the before of a later overwrite.
 */
function fileResult(context: TaskContext, index: number, call: ToolCall, content: string, isError: boolean): void {
  const path = callPath(call)
  const uiCreated = path !== undefined && WRITE_TOOLS.has(call.name) ? context.takeFileRow(path) : undefined
  if (isError) return
  if (path !== undefined && call.name === 'read_file') {
    const read = readContentOf(content, path)
    if (read !== undefined) context.knownFiles.set(path, read)
    return
  }
  const created = /<operation>created<\/operation>|"operation":\s*"created"|File created successfully at:/.test(content) || uiCreated === true
  const saved = path !== undefined && WRITE_TOOLS.has(call.name) ? savedContentOf(content) : null
  if (path !== undefined && saved !== null) return savedWrite(context, index, call, path, saved, created)
  if (call.name === 'apply_patch') return patchResult(context, index, call, content)
  const edit = editOf(call, index, created, context.knownFiles)
  if (edit) context.records.push(edit)
  // A tool that writes files whose call gives nothing to journal (Roo's insert_content, a diff
  // with no complete block…): reported, never dropped.
  else if (clineFileTools.writes.includes(call.name)) {
    context.records.push({ kind: 'change-not-captured', offset: index, toolCallId: call.id, tool: call.name, path: path ?? null, reason: 'its call gives no content Retrace can journal' })
  }
  context.records.push(...shellCommandsOf(call, index))
}

/**
 * A write whose result carries the file as saved: that is the content after. Before it: nothing
 * for a new file; for a `replace_in_file`, its blocks undone on the saved file; else what the task
 * showed of the file last (a read, an earlier write). With none of these, the change is reported.
 */
function savedWrite(context: TaskContext, index: number, call: ToolCall, path: string, saved: string, created: boolean): void {
  const diff = typeof call.input.diff === 'string' ? call.input.diff : undefined
  const before = created ? null : ((diff !== undefined ? undoSearchReplace(saved, diff) : undefined) ?? context.knownFiles.get(path))
  context.knownFiles.set(path, saved)
  if (before === undefined) {
    context.records.push({ kind: 'change-not-captured', offset: index, toolCallId: call.id, tool: call.name, path, reason: 'Cline keeps the file only as saved; its content before this write is not known' })
    return
  }
  context.records.push({ kind: 'file-edit', offset: index, toolCallId: call.id, path, before, after: saved })
}

/**
 * `apply_patch` (Codex's patch format): each file the result gives as saved is journaled, new
 * (`*** Add File:`) or from what the task showed of it last; the others, and a result that names
 * no file (Cline 4 keeps none), are reported.
 */
function patchResult(context: TaskContext, index: number, call: ToolCall, content: string): void {
  const patch = typeof call.input.input === 'string' ? call.input.input : typeof call.input.patch === 'string' ? call.input.patch : ''
  const added = new Set([...patch.matchAll(/^\*\*\* Add File: (.+)$/gm)].map((match) => fileKey(context.cwd, (match[1] as string).trim())))
  const files = patchedFilesOf(content)
  if (files.length === 0) {
    context.records.push({ kind: 'change-not-captured', offset: index, toolCallId: call.id, tool: call.name, path: null, reason: 'the apply_patch result gives no file as saved' })
    return
  }
  for (const file of files) {
    const before = added.has(fileKey(context.cwd, file.path)) ? null : context.knownFiles.get(file.path)
    if (file.after === null) context.knownFiles.delete(file.path)
    else context.knownFiles.set(file.path, file.after)
    if (before === undefined) {
      context.records.push({ kind: 'change-not-captured', offset: index, toolCallId: call.id, tool: call.name, path: file.path, reason: 'Cline keeps the file only as saved; its content before this patch is not known' })
    } else context.records.push({ kind: 'file-edit', offset: index, toolCallId: call.id, path: file.path, before, after: file.after })
  }
}

function callPath(call: ToolCall): string | undefined {
  for (const name of ['path', 'absolutePath', 'file_path']) {
    const value = call.input[name]
    if (typeof value === 'string' && value) return value
  }
  return undefined
}

function prompt(context: TaskContext, index: number, text: string): void {
  for (const tag of PROMPT_TAGS) {
    const words = tagged(text, tag)
    if (words !== null) return userPrompt(context, index, words)
  }
  // The first words of a task are a prompt even unwrapped; later loose text is Cline's own note
  // (Cline 4 wraps nothing: every text of the user is a prompt).
  if (context.firstPrompt === undefined || context.plainPrompts) return userPrompt(context, index, text.trim())
  if (text.trim()) context.message(index, { role: 'system', content: text.trim() })
}

function userPrompt(context: TaskContext, index: number, words: string): void {
  context.firstPrompt ??= words
  context.message(index, { role: 'user', content: words, startsTurn: true })
}

function environment(context: TaskContext, index: number, text: string): void {
  const cwd = /# Current (?:Working|Workspace) Directory \((.+?)\) Files/.exec(text)?.[1]
  // A multi-root workspace names its primary folder only (`Primary: <name>`), not a path.
  if (cwd && !cwd.startsWith('Primary: ') && !context.cwd) context.cwd = cwd
  const model = /<model>([^<\n]+)<\/model>/.exec(text)?.[1]
  if (model) context.envModel = model.trim()
  context.message(index, { role: 'system', content: text.trim() })
}

function tagged(text: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text)
  return match ? (match[1] as string).trim() : null
}

function resultText(content: unknown): string {
  return blocksOf(content)
    .map((block) => (typeof block.text === 'string' ? block.text : block.type === 'image' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n\n')
}
