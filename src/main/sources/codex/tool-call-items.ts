// Tool call and tool output response items: `tool_call` / `tool_result` messages, file edits, shell commands.
import { toolArguments } from '../plain-data'
import type { MessageRecord, SourceRecord } from '../records'
import { applyPatchFromCommand, parseApplyPatch } from './apply-patch'
import { imageAttachment } from './content'
import type { Emitter } from './emitter'
import { fileEdit, joinPath } from './file-edits'
import { messageRecord } from './record-builders'
import { CustomToolCallSchema, FunctionCallSchema, LocalShellCallSchema, ToolOutputSchema, WebSearchCallSchema } from './schemas'
import { readToolOutput, renderCommand, shellInvocation, toolSummary } from './tools'

/** An apply_patch text, and the directory its paths are relative to when known. */
interface Patch {
  text: string
  base: string | null
}

export function handleFunctionCall(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const call = em.check(FunctionCallSchema, payload, offset, 'response_item function_call')
  if (!call) return
  const input = toolArguments(call.arguments)
  let patch: Patch | null = null
  const shell = shellInvocation(call.name, input)
  if (call.name === 'apply_patch') {
    const o = input && typeof input === 'object' ? (input as Record<string, unknown>) : null
    const text = typeof input === 'string' ? input : typeof o?.input === 'string' ? o.input : typeof o?.patch === 'string' ? o.patch : null
    patch = text === null ? null : { text, base: null }
  } else if (shell) {
    const found = applyPatchFromCommand(shell.command)
    if (found) patch = { text: found.patch, base: joinPath(shell.workdir, found.cd) }
  }
  emitToolCall(em, offset, createdAt, call.name, call.call_id, input, patch, patch ? null : shell ? renderCommand(shell.command) : null)
}

export function handleCustomToolCall(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const call = em.check(CustomToolCallSchema, payload, offset, 'response_item custom_tool_call')
  if (!call) return
  const patch = call.name === 'apply_patch' ? { text: call.input, base: null } : null
  emitToolCall(em, offset, createdAt, call.name, call.call_id, call.input, patch, null)
}

export function handleLocalShellCall(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const call = em.check(LocalShellCallSchema, payload, offset, 'response_item local_shell_call')
  if (!call) return
  const callId = call.call_id ?? call.id ?? null
  const argv = call.action.command ?? []
  const found = argv.length > 0 ? applyPatchFromCommand(argv) : null
  const patch = found ? { text: found.patch, base: joinPath(call.action.working_directory ?? null, found.cd) } : null
  const input: Record<string, unknown> = { ...call.action, command: argv }
  if (call.action.working_directory) input.workdir = call.action.working_directory
  emitToolCall(em, offset, createdAt, 'local_shell', callId, input, patch, !patch && argv.length > 0 ? renderCommand(argv) : null)
}

export function handleWebSearchCall(em: Emitter, payload: unknown, offset: number, createdAt: number | undefined): void {
  const call = em.check(WebSearchCallSchema, payload, offset, 'response_item web_search_call')
  if (!call) return
  // The item carries no call_id (the web_search_end event's id is not on it), and no output
  // item follows: the search results go to the model only.
  emitToolCall(em, offset, createdAt, 'web_search', call.id ?? null, call.action ?? null, null, null)
}

/** A `function_call_output` / `custom_tool_call_output` item: the `tool_result` message. */
export function handleToolOutput(em: Emitter, type: string, payload: unknown, offset: number, createdAt: number | undefined): void {
  const item = em.check(ToolOutputSchema, payload, offset, `response_item ${type}`)
  if (!item) return
  const output = readToolOutput(item.output)
  const toolName = em.state.calls[item.call_id]
  delete em.state.calls[item.call_id]
  const extra: Partial<MessageRecord> = {
    toolCallId: item.call_id,
    isError: (output.exitCode !== null && output.exitCode !== 0) || output.success === false
  }
  if (toolName !== undefined) extra.toolName = toolName
  if (output.images.length > 0) extra.attachments = output.images.map(imageAttachment)
  const records: SourceRecord[] = [messageRecord(offset, 'tool_result', output.text, createdAt, extra)]
  const agentId = toolName === 'spawn_agent' ? spawnedAgentId(output.text) : null
  if (agentId) records.push({ kind: 'sub-agent-link', offset, toolCallId: item.call_id, agentId })
  em.emit(...records)
}

/** The child thread a `spawn_agent` call started: its output is `{"agent_id": "<thread id>", …}` (codex-rs collab tools). */
function spawnedAgentId(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text)
    const id = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).agent_id : null
    return typeof id === 'string' && id !== '' ? id : null
  } catch {
    return null
  }
}

/**
 * The `tool_call` message, then what the call did to files: `file-edit` records for a patch
 * (or a skipped record saying why the patch was not understood), a `shell-command` record
 * for a shell command.
 */
function emitToolCall(
  em: Emitter,
  offset: number,
  createdAt: number | undefined,
  toolName: string,
  callId: string | null,
  input: unknown,
  patch: Patch | null,
  command: string | null
): void {
  const parsed = patch ? parseApplyPatch(patch.text) : null
  const ops = parsed?.ok ? parsed.ops : null
  const extra: Partial<MessageRecord> = { toolName, toolInput: input }
  if (callId !== null) extra.toolCallId = callId
  const records: SourceRecord[] = [messageRecord(offset, 'tool_call', toolSummary(toolName, input, ops), createdAt, extra)]
  if (callId !== null) em.state.calls[callId] = toolName
  if (parsed && !parsed.ok) {
    records.push({ kind: 'skipped', offset, reason: `apply_patch not understood: ${parsed.error}` })
  } else if (ops && patch) {
    for (const op of ops) records.push(fileEdit(op, offset, callId, patch.base))
  } else if (command !== null) {
    records.push({ kind: 'shell-command', offset, toolCallId: callId, command })
  }
  em.emit(...records)
}
