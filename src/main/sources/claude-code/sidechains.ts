import { createHash } from 'node:crypto'
import type { SubAgentLinkRecord } from '../records'
import type { LineBase } from './schema'
import type { ParserState } from './state'

/** A short digest of a Task prompt: enough to know a sidechain's first line answers that call. */
export function promptDigest(prompt: string): string {
  return createHash('sha256').update(prompt.trim()).digest('hex').slice(0, 16)
}

/**
 * The sub-agent a line belongs to. Since 2.0 every sidechain line names its agent (`agentId`)
 * and sits in the agent's own file. Claude Code 1.0.x wrote a Task agent's lines into the
 * session's own file, marked `isSidechain` but naming no agent: a sidechain starts at a line
 * without parent (the Task prompt, as the user line of the agent) and goes on through its
 * `parentUuid` chain. Such an agent is named after the Task call whose prompt it was given (the
 * link is returned then), or after its first line when no pending call gave that prompt.
 */
export function sidechainAgent(state: ParserState, base: LineBase, json: object, offset: number): { agentId: string | null; link?: SubAgentLinkRecord } {
  if (base.isSidechain !== true) return { agentId: null }
  if (base.agentId) return { agentId: base.agentId }
  const uuid = base.uuid ?? null
  const parent = base.parentUuid ?? null
  let agentId = parent === null ? null : (state.sidechains.get(parent) ?? null)
  let link: SubAgentLinkRecord | undefined
  if (agentId === null && parent === null) {
    const call = taskOfPrompt(state, firstText(json))
    agentId = call ? call.toolCallId : (uuid ?? `line-${offset}`)
    if (call) link = { kind: 'sub-agent-link', offset, toolCallId: call.toolCallId, agentId, ...(call.description ? { description: call.description } : {}) }
  }
  // A line whose parent was not read (a cut file) continues the latest sidechain.
  agentId ??= state.sidechains.entries().at(-1)?.[1] ?? uuid ?? `line-${offset}`
  if (uuid !== null) state.sidechains.set(uuid, agentId)
  return link ? { agentId, link } : { agentId }
}

function taskOfPrompt(state: ParserState, text: string | null): { toolCallId: string; description: string | null } | null {
  if (text === null) return null
  const digest = promptDigest(text)
  const found = state.pending.entries().find(([, call]) => call.prompt === digest)
  return found ? { toolCallId: found[0], description: found[1].description } : null
}

function firstText(json: object): string | null {
  const content = (json as { message?: { content?: unknown } }).message?.content
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  for (const item of content as unknown[]) {
    const block = item as { type?: unknown; text?: unknown } | null
    if (block?.type === 'text' && typeof block.text === 'string') return block.text
  }
  return null
}
