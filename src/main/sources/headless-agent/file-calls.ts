import type { ChangeNotCapturedRecord, FileEditRecord, ShellCommandRecord } from '../records'
import { isRecord } from '../plain-data'

type FileRecord = FileEditRecord | ChangeNotCapturedRecord | ShellCommandRecord

/** Errors the agent's tools return before touching anything (registry.go: argument checks, policy). */
const DID_NOT_RUN = /^(policy denied|path is required|content is required|old is required|new is required|command is required|failed to execute command)/

const NO_CONTENT = "the headless agent records the replaced text only, not the file's content"

/**
 * The file changes of a session's tool calls (the accounting rule: each call that changed files is
 * journaled or reported). The agent keeps no file content, only the calls' arguments
 * (registry.go): `write` gives the whole new content; `edit` replaces the first `old` with `new`,
 * which can be replayed only on content this session wrote itself; `bash` may change anything.
 * A write or edit counts once its result says it succeeded (an empty `error`); one left without a
 * result when its goal ends (a killed run) may have changed the file, and is reported.
 */
export class FileCalls {
  /** What this session's own writes and edits left in each file, by the path as the agent wrote it. */
  private readonly written = new Map<string, string>()
  private readonly open = new Map<string, { tool: string; input: Record<string, unknown>; offset: number }>()

  /** A call: a shell command counts from the call (it may still be running); a write waits for its result. */
  call(toolCallId: string, tool: string, input: unknown, offset: number): FileRecord[] {
    const args = isRecord(input) ? input : {}
    if (tool === 'bash') return typeof args.command === 'string' ? [{ kind: 'shell-command', offset, toolCallId, command: args.command }] : []
    if (tool === 'write' || tool === 'edit') this.open.set(toolCallId, { tool, input: args, offset })
    return []
  }

  result(toolCallId: string | undefined, error: string, offset: number): FileRecord[] {
    const call = toolCallId === undefined ? undefined : this.open.get(toolCallId)
    if (!call || toolCallId === undefined) return []
    this.open.delete(toolCallId)
    if (error !== '') return DID_NOT_RUN.test(error) || /^(failed to read file|pattern not found)/.test(error) ? [] : [this.unknown(toolCallId, call, offset, `the call failed (${error.slice(0, 120)}): the file may be partly written`)]
    return [this.changed(toolCallId, call, offset)]
  }

  /** Calls still without a result (their goal ended, or the run stopped): reported, and forgotten. */
  unanswered(offset: number): FileRecord[] {
    const records = [...this.open].map(([id, call]) => this.unknown(id, call, offset, 'no result was recorded: the call may have changed the file'))
    this.open.clear()
    return records
  }

  private changed(toolCallId: string, call: { tool: string; input: Record<string, unknown> }, offset: number): FileRecord {
    const path = typeof call.input.path === 'string' ? call.input.path : null
    if (path === null) return this.unknown(toolCallId, call, offset, 'the call names no path')
    if (call.tool === 'write') {
      if (typeof call.input.content !== 'string') return this.unknown(toolCallId, call, offset, 'the call keeps no content')
      const before = this.written.get(path)
      this.written.set(path, call.input.content)
      return { kind: 'file-edit', offset, toolCallId, path, ...(before !== undefined ? { before } : {}), after: call.input.content }
    }
    const before = this.written.get(path)
    const { old, new: replacement } = call.input
    if (before === undefined || typeof old !== 'string' || typeof replacement !== 'string' || !before.includes(old)) {
      this.written.delete(path)
      return this.unknown(toolCallId, call, offset, NO_CONTENT)
    }
    // strings.Replace(content, old, new, 1): the first occurrence only.
    const after = before.replace(old, () => replacement)
    this.written.set(path, after)
    return { kind: 'file-edit', offset, toolCallId, path, before, after }
  }

  private unknown(toolCallId: string, call: { tool: string; input: Record<string, unknown> }, offset: number, reason: string): ChangeNotCapturedRecord {
    return { kind: 'change-not-captured', offset, toolCallId, tool: call.tool, path: typeof call.input.path === 'string' ? call.input.path : null, reason }
  }
}
