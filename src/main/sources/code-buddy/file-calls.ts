import type { ChangeNotCapturedRecord, FileEditRecord, MessageRecord, ShellCommandRecord, SourceRecord } from '../records'
import { isRecord } from '../plain-data'
import { fileTools } from './file-tools'

export type FileCallRecord = FileEditRecord | ChangeNotCapturedRecord | ShellCommandRecord

/** A tool call as one of Code Buddy's files keeps it: its input is absent from session files. */
export interface ToolCall {
  tool: string
  /** The call's arguments; undefined when the file keeps none (a session file's `tool_call` is "Executing..."). */
  input: unknown
  toolCallId: string | null
}

const NO_INPUT = "Code Buddy's session file keeps the tool's name only, not its input or the file's content"
const NO_CONTENT = "Code Buddy keeps the replaced text only, not the file's content"

/**
 * The file changes of one session's tool calls (the accounting rule: each call that changed files is
 * journaled or reported), from core-tools.ts: create_file / write_file give `content` whole;
 * str_replace_editor / patch replace `old_str` with `new_str` (first occurrence unless
 * `replace_all`; the aliases old_string, new_string… as its schema lists them), replayable only on
 * content the session itself wrote; apply_patch and edit_file (another model applies a sketch) are
 * reported. A shell call counts as a command whose changes are not captured.
 */
export class FileCalls {
  private readonly written = new Map<string, string>()

  /** The records of a call that ran (`succeeded` false: it failed, a write then changed nothing). */
  ran(call: ToolCall, succeeded: boolean | undefined, offset: number): FileCallRecord[] {
    const args = isRecord(call.input) ? call.input : undefined
    if (fileTools.shell.includes(call.tool)) {
      // A session file keeps no command: it still ran one, which may have changed anything.
      const command = typeof args?.command === 'string' ? args.command : `${call.tool} (the command is not recorded)`
      return [{ kind: 'shell-command', offset, toolCallId: call.toolCallId, command }]
    }
    if (!fileTools.writes.includes(call.tool) || succeeded === false) return []
    if (!args) return [notCaptured(call, null, offset, NO_INPUT)]
    if (call.tool === 'apply_patch') return [notCaptured(call, null, offset, "Code Buddy keeps the patch text, not the files' content")]
    const path = text(args, 'path', 'file_path', 'target_file')
    if (path === undefined) return [notCaptured(call, null, offset, 'the call names no file')]
    const before = this.written.get(path)
    if (call.tool === 'create_file' || call.tool === 'write_file') {
      const content = text(args, 'content')
      if (content === undefined) return [notCaptured(call, path, offset, 'the call keeps no content')]
      this.written.set(path, content)
      return [{ kind: 'file-edit', offset, toolCallId: call.toolCallId, path, ...(before !== undefined ? { before } : {}), after: content }]
    }
    const oldText = text(args, 'old_str', 'old_text', 'old_content', 'find', 'old_string')
    const newText = text(args, 'new_str', 'new_text', 'new_content', 'replace', 'new_string')
    if ((call.tool === 'str_replace_editor' || call.tool === 'patch') && before !== undefined && oldText && newText !== undefined && before.includes(oldText)) {
      const after = args.replace_all === true ? before.split(oldText).join(newText) : before.replace(oldText, () => newText)
      this.written.set(path, after)
      return [{ kind: 'file-edit', offset, toolCallId: call.toolCallId, path, before, after }]
    }
    this.written.delete(path)
    return [notCaptured(call, path, offset, call.tool === 'edit_file' ? 'Code Buddy keeps the sketch another model applied, not the result' : NO_CONTENT)]
  }
}

function text(args: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) if (typeof args[key] === 'string') return args[key]
  return undefined
}

function notCaptured(call: ToolCall, path: string | null, offset: number, reason: string): ChangeNotCapturedRecord {
  return { kind: 'change-not-captured', offset, toolCallId: call.toolCallId, tool: call.tool, path, reason }
}

/**
 * A session's records with the file changes of its own calls after their results: a call counts once
 * its result is there (Code Buddy rewrites some calls into their result: a result naming a tool with
 * no call before it ran too), a call left without one at the session's end. `isOwn` tells the
 * session's own messages from those it copied (a branch's prefix, a merged branch), whose calls
 * are accounted for in the session they came from.
 */
export function withFileCalls(records: SourceRecord[], isOwn: (record: MessageRecord) => boolean): SourceRecord[] {
  const calls = new FileCalls()
  const open = new Map<string, ToolCall & { offset: number; own: boolean }>()
  const out: SourceRecord[] = []
  for (const record of records) {
    out.push(record)
    if (record.kind !== 'message') continue
    const own = isOwn(record)
    // A copied call is remembered too: a result of the session's own may answer it.
    if (record.role === 'tool_call' && record.toolName && record.toolCallId) {
      open.set(record.toolCallId, { tool: record.toolName, input: record.toolInput ?? undefined, toolCallId: record.toolCallId, offset: record.offset, own })
    } else if (record.role === 'tool_result') {
      const call = record.toolCallId ? open.get(record.toolCallId) : undefined
      if (call) open.delete(call.toolCallId ?? '')
      if (!own) continue
      const ran = call ?? (record.toolName ? { tool: record.toolName, input: undefined, toolCallId: record.toolCallId ?? null } : undefined)
      if (ran) out.push(...calls.ran(ran, record.isError === undefined ? undefined : !record.isError, record.offset))
    }
  }
  for (const call of open.values()) if (call.own) out.push(...calls.ran(call, undefined, call.offset))
  return out
}
