import { randomUUID } from 'node:crypto'
import type { Conversation, ConversationItem } from './conversation'

/**
 * The Claude Code version whose line shapes these copy (the real sessions in
 * fixtures/claude-code/spotter, 2.1.38): `version` says which shape a line has, not who wrote it.
 */
export const CLAUDE_LINE_VERSION = '2.1.38'

interface LineContext {
  sessionId: string
  cwd: string
  /** Used for lines whose message has no time of its own. */
  now: number
}

/**
 * A Claude Code session file holding the conversation: one JSON line per message, as Claude Code
 * writes them (`parentUuid` chaining each line to the one before, `sessionId`, `cwd`, `version`,
 * `userType`, `isSidechain`), a prompt as a user line with string content, a reply as an
 * assistant line with a text block, a tool call as an assistant line with a `tool_use` block
 * and its result as the next user line with the matching `tool_result` block.
 */
export function claudeCodeLines(conversation: Conversation, context: LineContext): string[] {
  const lines: string[] = []
  let parentUuid: string | null = null
  let clock = 0
  const push = (item: ConversationItem, body: Record<string, unknown>): string => {
    const uuid = randomUUID()
    // Times never go backwards, even where the source had none.
    clock = Math.max(clock, item.createdAt ?? context.now)
    lines.push(
      JSON.stringify({
        parentUuid,
        isSidechain: false,
        userType: 'external',
        cwd: context.cwd,
        sessionId: context.sessionId,
        version: CLAUDE_LINE_VERSION,
        ...body,
        uuid,
        timestamp: new Date(clock).toISOString()
      })
    )
    parentUuid = uuid
    return uuid
  }
  for (const item of conversation.items) {
    if (item.kind === 'user') {
      push(item, { type: 'user', message: { role: 'user', content: item.text } })
    } else if (item.kind === 'assistant') {
      push(item, { type: 'assistant', message: assistantMessage(item.model ?? conversation.model, [{ type: 'text', text: item.text }]) })
    } else {
      const callUuid = push(item, { type: 'assistant', message: assistantMessage(item.model ?? conversation.model, [{ type: 'tool_use', id: item.callId, name: item.name, input: item.input }]) })
      push(item, {
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: item.callId, type: 'tool_result', content: item.output, is_error: item.isError }] },
        sourceToolAssistantUUID: callUuid
      })
    }
  }
  return lines
}

function assistantMessage(model: string | null, content: unknown[]): Record<string, unknown> {
  return {
    // Claude Code's own name for a message no model wrote.
    model: model ?? '<synthetic>',
    id: `msg_retrace_${randomUUID().replace(/-/g, '')}`,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
  }
}
