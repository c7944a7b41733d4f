import type { Usage } from '../../../shared/contract'
import type { MessageRecord } from '../records'
import type { TaskContext } from './task-context'
import { isObject } from './ui-messages'
import { splitAssistantText } from './xml-tools'

/**
 * One assistant message of `api_conversation_history.json` (Anthropic `MessageParam`): its text,
 * `<thinking>` and `thinking` blocks as reasoning, and its tool calls, XML in the text or native
 * `tool_use` blocks. `task_progress` (Cline's focus-chain checklist, repeated in every call) is
 * left out of the inputs. The usage the UI recorded for the request goes on its first record.
 */
export function assistantRecords(context: TaskContext, index: number, content: unknown, usage: Partial<Usage> | undefined): void {
  const first = context.records.length
  const model = context.model
  const byModel = model ? { model } : {}
  for (const block of blocksOf(content)) {
    if (block.type === 'text' && typeof block.text === 'string') {
      for (const part of splitAssistantText(block.text)) {
        if (part.kind === 'text') context.message(index, { role: 'assistant', content: part.text, ...byModel })
        else if (part.kind === 'reasoning') context.message(index, { role: 'reasoning', content: part.text, ...byModel })
        else toolCall(context, index, part.name, part.input, null, byModel)
      }
    } else if ((block.type === 'thinking' || block.type === 'reasoning') && typeof (block.thinking ?? block.text) === 'string') {
      const text = String(block.thinking ?? block.text).trim()
      if (text) context.message(index, { role: 'reasoning', content: text, ...byModel })
    } else if (block.type === 'tool_use' && typeof block.name === 'string') {
      const input = isObject(block.input) ? block.input : {}
      toolCall(context, index, block.name, input, typeof block.id === 'string' ? block.id : null, byModel)
    }
  }
  const head = context.records[first]
  if (usage && head?.kind === 'message') head.usage = usage
  else if (usage) context.records.push({ kind: 'usage', offset: index, usage })
}

function toolCall(context: TaskContext, index: number, name: string, rawInput: Record<string, unknown>, nativeId: string | null, byModel: Partial<MessageRecord>): void {
  const input = Object.fromEntries(Object.entries(rawInput).filter(([key]) => key !== 'task_progress'))
  const record = context.message(index, { role: 'tool_call', content: '', toolName: name, toolInput: input, ...byModel })
  const id = nativeId ?? record.uid ?? `${context.taskId}#${index}`
  record.toolCallId = id
  context.unanswered.push({ name, input, id })
}

type Block = Record<string, unknown>

export function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return Array.isArray(content) ? content.filter(isObject) : []
}
