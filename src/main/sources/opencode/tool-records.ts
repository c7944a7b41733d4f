import type { ChangeNotCapturedRecord, FileEditRecord, MessageRecord, SourceRecord } from '../records'
import { isRecord } from '../plain-data'
import { openCodeFileTools } from './file-tools'
import { text } from './model'

type WithoutOffset<T> = T extends unknown ? Omit<T, 'offset'> : never
export type Draft = WithoutOffset<SourceRecord>
type MessageBase = Pick<Omit<MessageRecord, 'offset'>, 'kind' | 'uid' | 'parentUid' | 'agentId' | 'startsTurn' | 'createdAt'>

/**
 * A `tool` part (`MessageV2.ToolPart`: `callID`, `tool`, `state`): the call, then its result once
 * the state is `completed` (output) or `error` (the error, flagged); a call still `pending` or
 * `running` was cut off (OpenCode stopped) and has no result. What the tool did to files comes
 * from its state: `edit` keeps `metadata.filediff` (the whole file before and after, or in newer
 * versions the patch alone), `multiedit` one such metadata per edit, `write` its `input.content`,
 * `apply_patch` `metadata.files`; `bash` is a shell command whose changes Retrace did not see. A
 * call of a tool that writes (file-tools.ts) that keeps none of these, or was cut off, is a change
 * not captured, with why.
 */
export function toolRecords(part: Record<string, unknown>, partId: string, base: MessageBase): Draft[] {
  const state = isRecord(part.state) ? part.state : {}
  const callId = text(part.callID) ?? partId
  const tool = text(part.tool) ?? 'tool'
  const input = isRecord(state.input) ? state.input : {}
  const time = isRecord(state.time) ? state.time : {}
  const records: Draft[] = [{ ...base, uid: `${partId}#call`, role: 'tool_call', content: text(state.title) ?? '', toolName: tool, toolCallId: callId, toolInput: input, ...at(time.start, base.createdAt) }]
  const status = state.status
  const writes = openCodeFileTools.writes.includes(tool)
  // A call cut off (OpenCode stopped while it ran) may or may not have written its file.
  if (status !== 'completed' && status !== 'error') return writes ? [...records, notCaptured(tool, input, callId, 'the call was cut off before OpenCode kept its result: whether it changed the file is not known')] : records
  const output = status === 'completed' ? (typeof state.output === 'string' ? state.output : '') : (text(state.error) ?? 'error')
  records.push({ ...base, uid: `${partId}#result`, role: 'tool_result', content: output, toolName: tool, toolCallId: callId, isError: status === 'error', ...at(time.end, base.createdAt) })
  if (status !== 'completed') return records
  const metadata = isRecord(state.metadata) ? state.metadata : {}
  const edits = fileEdits(tool, input, metadata, callId)
  records.push(...edits)
  if (writes && edits.length === 0) records.push(notCaptured(tool, input, callId, 'OpenCode kept neither the file before and after nor a patch for this call'))
  if (tool === 'bash' && typeof input.command === 'string') records.push({ kind: 'shell-command', toolCallId: callId, command: input.command })
  return records
}

/** The child session a `task` call started (`state.metadata.sessionId`; `sessionID` in newer versions). */
export function taskSessionId(part: Record<string, unknown>): string | null {
  if (part.type !== 'tool' || !isRecord(part.state)) return null
  const metadata = isRecord(part.state.metadata) ? part.state.metadata : {}
  return text(metadata.sessionId) ?? text(metadata.sessionID)
}

function fileEdits(tool: string, input: Record<string, unknown>, metadata: Record<string, unknown>, callId: string): Omit<FileEditRecord, 'offset'>[] {
  const edit = (path: string | null, contents: Pick<FileEditRecord, 'before' | 'after' | 'patch'>): Omit<FileEditRecord, 'offset'>[] =>
    path ? [{ kind: 'file-edit', toolCallId: callId, path, ...contents }] : []
  if (tool === 'edit') {
    const diff = isRecord(metadata.filediff) ? metadata.filediff : {}
    const path = text(diff.file) ?? text(input.filePath)
    if (typeof diff.before === 'string' && typeof diff.after === 'string') return edit(path, { before: diff.before, after: diff.after })
    const patch = text(diff.patch) ?? text(metadata.diff)
    return patch ? edit(path, { patch }) : []
  }
  if (tool === 'multiedit' && Array.isArray(metadata.results)) {
    // Each edit's own metadata, in the order applied: the file after one is the file before the next.
    return metadata.results.filter(isRecord).flatMap((result) => fileEdits('edit', input, result, callId))
  }
  if (tool === 'write' && typeof input.content === 'string') {
    // `exists: false`: the tool created the file. Otherwise what it replaced was not kept.
    return edit(text(input.filePath) ?? text(metadata.filepath), metadata.exists === false ? { before: null, after: input.content } : { after: input.content })
  }
  if (tool === 'apply_patch' && Array.isArray(metadata.files)) {
    return metadata.files.filter(isRecord).flatMap((file) => {
      const path = text(file.filePath) ?? text(file.file)
      const before = file.type === 'add' ? null : typeof file.before === 'string' ? file.before : undefined
      const after = file.type === 'delete' ? null : typeof file.after === 'string' ? file.after : undefined
      if (before !== undefined && after !== undefined) return edit(path, { before, after })
      const patch = text(file.patch) ?? text(file.diff)
      return patch ? edit(path, { patch }) : []
    })
  }
  return []
}

function notCaptured(tool: string, input: Record<string, unknown>, callId: string, reason: string): Omit<ChangeNotCapturedRecord, 'offset'> {
  return { kind: 'change-not-captured', toolCallId: callId, tool, path: text(input.filePath) ?? text(input.path), reason }
}

function at(time: unknown, fallback: number | undefined): { createdAt?: number } {
  const value = typeof time === 'number' ? time : fallback
  return value !== undefined ? { createdAt: value } : {}
}
