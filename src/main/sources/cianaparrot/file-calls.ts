import { posix } from 'node:path'
import type { ChangeNotCapturedRecord, FileEditRecord, ShellCommandRecord, SourceRecord } from '../records'
import { isRecord } from '../plain-data'
import { fileTools } from './file-tools'

type FileCallRecord = FileEditRecord | ChangeNotCapturedRecord | ShellCommandRecord

/** The agent's sandbox, relative to the deployment folder (the session's cwd): its file tools' "/" (seed 003). */
const SANDBOX = 'workspace'

const NO_CONTENT = "CianaParrot keeps the replaced text only, not the file's content"

/**
 * A thread's records with the file changes of its own calls after their results (the accounting
 * rule). FilesystemBackend's tools (seed 003) take virtual paths from the sandbox root:
 * write_file(file_path, content) creates or overwrites, edit_file(file_path, old_string,
 * new_string, replace_all) replaces, replayable only on content the thread itself wrote; a
 * result starting "Error" changed nothing. `execute` and `host_execute` run a command. Records up
 * to `copiedUntil` (a time-travel branch's prefix, its parent's) are accounted for in the parent.
 */
export function withFileCalls(records: SourceRecord[], copiedUntil: string | null): SourceRecord[] {
  let own = copiedUntil === null
  // The last shared message may make several records (its text, then each tool call, uid on the
  // first only): the branch's own begin at the next message with a uid of its own.
  let pastFork = false
  const written = new Map<string, string>()
  const open = new Map<string, { tool: string; args: Record<string, unknown>; own: boolean }>()
  const out: SourceRecord[] = []
  for (const record of records) {
    // LangGraph's own accounting of the same calls (langgraph/thread-records.ts) knows neither
    // the sandbox nor the content a thread wrote: this one replaces it, so each call counts once.
    if (record.kind === 'change-not-captured' || record.kind === 'shell-command') continue
    out.push(record)
    if (record.kind !== 'message') continue
    if (!own) {
      if (record.uid === copiedUntil) pastFork = true
      else if (pastFork && record.uid !== null) own = true
    }
    // A copied call is remembered too: the branch may run it again (its own result).
    if (record.role === 'tool_call' && record.toolName && record.toolCallId) open.set(record.toolCallId, { tool: record.toolName, args: isRecord(record.toolInput) ? record.toolInput : {}, own })
    if (record.role !== 'tool_result' || !record.toolCallId) continue
    const call = open.get(record.toolCallId)
    if (!call) continue
    open.delete(record.toolCallId)
    if (!own) continue
    const failed = record.isError === true || /^\s*Error\b/.test(record.content)
    out.push(...callRecords(call, record.toolCallId, failed, record.offset, written))
  }
  // An own call without a result (the run was cut short) may have run.
  for (const [id, call] of open) if (call.own) out.push(...callRecords(call, id, false, out.at(-1)?.offset ?? 0, written, 'no result was recorded: the call may have changed the file'))
  return out
}

function callRecords(call: { tool: string; args: Record<string, unknown> }, toolCallId: string, failed: boolean, offset: number, written: Map<string, string>, unsure?: string): FileCallRecord[] {
  const { tool, args } = call
  if (fileTools.shell.includes(tool)) return typeof args.command === 'string' ? [{ kind: 'shell-command', offset, toolCallId, command: args.command }] : []
  if (!fileTools.writes.includes(tool) || failed) return []
  const virtual = typeof args.file_path === 'string' ? args.file_path : undefined
  const notCaptured = (path: string | null, reason: string): ChangeNotCapturedRecord => ({ kind: 'change-not-captured', offset, toolCallId, tool, path, reason })
  if (virtual === undefined) return [notCaptured(null, 'the call names no file')]
  const path = posix.join(SANDBOX, posix.normalize(`/${virtual}`))
  if (unsure) return [notCaptured(path, unsure)]
  const before = written.get(path)
  if (tool === 'write_file') {
    if (typeof args.content !== 'string') return [notCaptured(path, 'the call keeps no content')]
    written.set(path, args.content)
    return [{ kind: 'file-edit', offset, toolCallId, path, ...(before !== undefined ? { before } : {}), after: args.content }]
  }
  const { old_string: oldText, new_string: newText } = args
  if (before === undefined || typeof oldText !== 'string' || !oldText || typeof newText !== 'string' || !before.includes(oldText)) {
    written.delete(path)
    return [notCaptured(path, NO_CONTENT)]
  }
  const after = args.replace_all === true ? before.split(oldText).join(newText) : before.replace(oldText, () => newText)
  written.set(path, after)
  return [{ kind: 'file-edit', offset, toolCallId, path, before, after }]
}
