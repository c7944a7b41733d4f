import type { Emitter } from './emitter'
import { parseTime } from './record-builders'
import { handleResponseItem } from './response-items'
import { handleSessionMeta } from './session-meta'

/**
 * Rollouts written before Codex wrapped its lines (releases up to about early September 2025,
 * 0.2x-0.3x): the first line is the session's header itself, `{id, timestamp, instructions, git}`,
 * without `cwd`; each later line is a bare response item (`{type: "message" | "function_call" |
 * "function_call_output" | "reasoning" | "local_shell_call", ...}`) with no timestamp, and
 * `{"record_type": "state"}` lines are the recorder's bookkeeping. The folder the session ran in
 * is only said in the `<environment_context>` of its first user message.
 *
 * These shapes come from the Codex source of that time (RolloutRecorder writing SessionMeta, then
 * ResponseItems and state markers) and from other readers' notes on it; no real file of this era
 * is public that we could find, so the tests use files written in exactly these shapes.
 */

export type LegacyLine =
  | { kind: 'header'; meta: Record<string, unknown> & { id: string; timestamp: string } }
  | { kind: 'item'; item: Record<string, unknown> }
  | { kind: 'state' }

/** Response item types a bare line may hold (what the wrapped format puts under `response_item`). */
const ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'local_shell_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call'
])

/** What a line that has no `{type, payload}` wrapper is, if it is one of the old format's. */
export function legacyLine(json: unknown): LegacyLine | null {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null
  const fields = json as Record<string, unknown>
  if (fields.record_type === 'state' && fields.type === undefined) return { kind: 'state' }
  if (fields.type === undefined && typeof fields.id === 'string' && typeof fields.timestamp === 'string') {
    // Later releases of this era add `cwd`, `originator` and `cli_version` to the header.
    return { kind: 'header', meta: { ...fields, id: fields.id, timestamp: fields.timestamp } }
  }
  if (typeof fields.type === 'string' && ITEM_TYPES.has(fields.type) && fields.payload === undefined) return { kind: 'item', item: fields }
  return null
}

const CWD_IN_CONTEXT = /<environment_context>[\s\S]*?<cwd>([^<]+)<\/cwd>/

/** The folder an old rollout ran in: the `<cwd>` of the environment context in a user message. */
export function legacyCwd(lines: readonly Record<string, unknown>[]): string | null {
  for (const line of lines) {
    if (line.type !== 'message' || line.role !== 'user' || !Array.isArray(line.content)) continue
    for (const part of line.content as unknown[]) {
      const text = part !== null && typeof part === 'object' ? (part as { text?: unknown }).text : undefined
      const cwd = typeof text === 'string' ? CWD_IN_CONTEXT.exec(text)?.[1]?.trim() : undefined
      if (cwd) return cwd
    }
  }
  return null
}

/**
 * One line of an old rollout: the header is the session's meta, an item is read as the wrapped
 * format's response item (old files hold no events, so prompts are told from context by the
 * content markers), a state line is bookkeeping. A header without `cwd` leaves the folder to the
 * first user message's environment context. Items carry no time: they are dated by the header.
 */
export function handleLegacyLine(em: Emitter, line: LegacyLine, offset: number): void {
  switch (line.kind) {
    case 'state':
      return
    case 'header':
      em.state.legacyTime = parseTime(line.meta.timestamp) ?? null
      return handleSessionMeta(em, line.meta, offset, em.state.legacyTime ?? undefined)
    case 'item': {
      if (em.state.cwd === null) {
        const cwd = legacyCwd([line.item])
        if (cwd !== null) {
          em.state.cwd = cwd
          em.emit({ kind: 'session-meta', offset, cwd })
        }
      }
      return handleResponseItem(em, line.item, offset, em.state.legacyTime ?? undefined)
    }
  }
}
