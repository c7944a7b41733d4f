import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { SessionMetaRecord, SourceRecord } from '../records'
import { HISTORY_FILE, HISTORY_ITEM_FILE } from './discover'
import { taskRecords } from './task-records'
import { isObject, readUiMessages } from './ui-messages'

/**
 * The task that started this one with `new_task`, from the task's `history_item.json`
 * (`parentTaskId`, Roo Code's `HistoryItem`), and that task's `new_task` call: the one whose
 * result names this task (`Subtask <id> completed.`, Roo's `reopenParentFromDelegation`), else the
 * one whose `message` is this task's first prompt, else the one at this task's place in the
 * parent's `childIds`. Null for a task started by the user, or one whose history item is not there
 * (earlier versions kept it only in VS Code's state database, which is not read).
 */
export function parentLink(taskDir: string, records: SourceRecord[], indexedParent?: string): NonNullable<SessionMetaRecord['parent']> | null {
  const item = readObject(join(taskDir, HISTORY_ITEM_FILE))
  const parentId = indexedParent ?? item?.parentTaskId
  if (typeof parentId !== 'string' || !parentId || parentId === item?.id) return null
  const parentDir = join(dirname(taskDir), parentId)
  const history = readJson(join(parentDir, HISTORY_FILE))
  const calls = history === undefined ? [] : newTaskCalls(parentId, history)
  const prompt = records.find((record) => record.kind === 'message' && record.startsTurn)
  const words = prompt?.kind === 'message' ? prompt.content.trim() : undefined
  const childId = typeof item?.id === 'string' ? item.id : basename(taskDir)
  let call = calls.find((candidate) => candidate.result?.includes(`Subtask ${childId} completed`)) ?? calls.find((candidate) => candidate.message === words)
  if (!call) {
    const childIds = readObject(join(parentDir, HISTORY_ITEM_FILE))?.childIds
    const place = Array.isArray(childIds) ? childIds.indexOf(childId) : -1
    call = place >= 0 ? calls[place] : undefined
  }
  return { sessionId: parentId, kind: 'sub-agent', ...(call ? { toolCallId: call.id } : {}) }
}

/** The parent's `new_task` calls in order, with the ids its own import gives them, and their results. */
function newTaskCalls(parentId: string, history: unknown): { id: string; message: string | undefined; result: string | undefined }[] {
  const { records } = taskRecords({ taskId: parentId, history, ui: readUiMessages([]), metadataModel: undefined })
  const results = new Map(records.flatMap((record) => (record.kind === 'message' && record.role === 'tool_result' && record.toolCallId ? [[record.toolCallId, record.content] as const] : [])))
  return records.flatMap((record) => {
    if (record.kind !== 'message' || record.role !== 'tool_call' || record.toolName !== 'new_task' || !record.toolCallId) return []
    const message = isObject(record.toolInput) && typeof record.toolInput.message === 'string' ? record.toolInput.message.trim() : undefined
    return [{ id: record.toolCallId, message, result: results.get(record.toolCallId) }]
  })
}

function readObject(path: string): Record<string, unknown> | undefined {
  const value = readJson(path)
  return isObject(value) ? value : undefined
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown
  } catch {
    return undefined
  }
}
