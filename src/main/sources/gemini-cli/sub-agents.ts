import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { readConversation } from './conversation'
import { asObject } from './parts'

/**
 * The parent's tool call that started a sub-agent. A sub-agent's recording lives in
 * `chats/<parent session id>/<agent id>.jsonl` (its session id is the agent id), and the
 * parent's call carries `agentId` (geminiChat.ts, from the tool's response data). The parent is
 * the `session-*-<first 8 of its id>.json(l)` beside that folder. Undefined when not found: the
 * sub-agent then hangs below the session, not at a call.
 */
export async function startingCall(subAgentFile: string, parentSessionId: string, agentId: string): Promise<string | undefined> {
  const chats = dirname(dirname(subAgentFile))
  const suffix = new RegExp(`^session-.*-${parentSessionId.slice(0, 8).replace(/[^0-9A-Za-z_-]/g, '')}\\.jsonl?$`)
  let names: string[]
  try {
    names = (await readdir(chats)).filter((name) => suffix.test(name) && basename(dirname(subAgentFile)) === parentSessionId)
  } catch {
    return undefined
  }
  for (const name of names) {
    let text: string
    try {
      text = await readFile(join(chats, name), 'utf8')
    } catch {
      continue
    }
    const conversation = readConversation(text)
    if (conversation.meta.sessionId !== parentSessionId) continue
    for (const event of conversation.events) {
      if (event.kind !== 'message' || !Array.isArray(event.message.toolCalls)) continue
      for (const value of event.message.toolCalls as unknown[]) {
        const call = asObject(value)
        if (call?.agentId === agentId && typeof call.id === 'string') return call.id
      }
    }
  }
  return undefined
}
