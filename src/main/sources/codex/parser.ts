import type { LineParser, SourceRecord } from '../records'
import { handleCompactedLine } from './compaction'
import { Emitter } from './emitter'
import { handleEvent } from './event-messages'
import { handleInterAgentCommunication } from './inter-agent'
import { handleLegacyLine, legacyLine } from './legacy-rollout'
import { restoreState, type CodexParserState } from './parser-state'
import { parseTime } from './record-builders'
import { handleResponseItem } from './response-items'
import { describeIssues, RolloutLineSchema } from './schemas'
import { handleSessionMeta, handleTurnContext } from './session-meta'

export type { CodexParserState } from './parser-state'

/**
 * Parser of one Codex CLI rollout (`rollout-<ts>-<uuid>.jsonl`), one `{timestamp, type, payload}`
 * line at a time. Pure: no I/O; everything an incremental resume needs is in `state()`.
 *
 * ## User prompts: the `user_message` events
 *
 * A turn is a prompt the user sent. Codex records each one as a `user_message` event, and rebuilds
 * a session's turns from those events alone when it reopens it (codex-rs app-server
 * `thread_history.rs`); its user `message` items are what the model was sent, which also carries
 * context: AGENTS.md and user instructions, the environment, skills, context re-sent mid-session.
 * Codex writes a prompt's item and then its event on the next line (`record_user_prompt_and_emit_
 * turn_item`: record the item, emit the event; the 0.77, 0.104 and 0.125 fixtures all show it),
 * and no event for context. Codex Desktop 0.128 writes only the event. So:
 * - a user item marked as context (`content.ts`) is a system message at once;
 * - any other user item waits for the next record-producing line. If that is a `user_message`
 *   event, item and event are one prompt (the event's text, the item's place: `user-prompts.ts`).
 *   If not, and the file has shown a `user_message` event, the item is context (a system message);
 *   in a file that has shown none yet, records wait behind it until either an event comes (the file
 *   has them: the items before it are context) or the model answers (a file without events: the
 *   items are prompts, markers being all there is). That is what tells a sanitised file, where
 *   every marker is redacted, from an old one, and it also reads a rollout a newer Codex resumed.
 *   What waits is in the state; a prompt that nothing follows yet appears with the next line.
 * - a `user_message` event with no item before it is a prompt (an item right after it with the
 *   same text is its copy: no known release writes that order, but it costs nothing); tagged with
 *   a `kind` other than plain, or marked as context, it is context (and so is the item before it).
 *
 * ## Duplicates between `response_item` and `event_msg` lines
 *
 * Codex persists both the model-facing items (`response_item`) and some UI events (`event_msg`)
 * that restate them. Besides user prompts (above), what the fixtures show:
 * - assistant text: 0.125 writes an `agent_message` event immediately BEFORE each assistant
 *   `message` item (13 of 13); Desktop 0.128 writes the items only.
 * - reasoning: 0.77 writes an `agent_reasoning` event immediately before the `reasoning` item whose
 *   summary it repeats. (0.125 and 0.128 reasoning is encrypted, with empty summaries and no events.)
 * Since the item comes after its event, `agent_message` / `agent_reasoning` events are HELD: kept
 * in the state, dropped if the next record-producing line is the matching item, emitted (at their
 * own offset) before that line's records otherwise. Lines that produce no record (ignored
 * events, repeated token counts) do not release them. A held event at the very end of a file is
 * emitted when a next line arrives; Codex always writes the item right after its event.
 * - compaction (none in the fixtures; codex-rs writes the line, then the event): a top-level
 *   `compacted{message}` line (the summary; empty on remote compaction), a `context_compacted`
 *   event (no summary), and on remote compaction a `compaction` response item (encrypted). One
 *   compaction record per group of these with no conversation record between them: the first
 *   line wins, except that a `context_compacted` event is held and gives way to a `compacted`
 *   line or `compaction` item right after it.
 * - token counts: `token_count` events repeat the same totals (0.77 writes each twice), and
 *   `info` is null before the first response. Usage is emitted only when `total_token_usage`
 *   changes, as that event's `last_token_usage`, so the usage records add up to the last total.
 *
 * ## Paginated rollouts
 * A rollout whose `session_meta.history_mode` is "paginated" (Codex 0.149 on) has no
 * `user_message` / `agent_message` / `agent_reasoning` events: it has, at their place, the
 * `item_completed` events they are derived from. `turn-items.ts` reads each such item as those
 * events, so everything above holds for both modes and they give the same transcript.
 *
 * ## Usage mapping
 * OpenAI counts cached input inside `input_tokens` and reasoning inside `output_tokens`
 * (`total_tokens = input_tokens + output_tokens` in every fixture line). Retrace's `Usage`
 * follows Anthropic's split, so: `inputTokens = input_tokens - cached_input_tokens`,
 * `cacheReadTokens = cached_input_tokens`, `outputTokens = output_tokens` (reasoning included,
 * not added again), no cache writes.
 */

export function createCodexParser(state?: unknown): LineParser {
  return new CodexParser(state)
}

class CodexParser implements LineParser {
  private readonly s: CodexParserState
  private readonly em: Emitter

  constructor(state?: unknown) {
    this.s = restoreState(state)
    this.em = new Emitter(this.s)
  }

  state(): unknown {
    return structuredClone(this.s)
  }

  feed(line: string, offset: number): SourceRecord[] {
    this.em.take()
    try {
      this.handleLine(line, offset)
    } catch (error) {
      // Defensive: a bug here must cost one line, not the import.
      this.em.emit({ kind: 'skipped', offset, reason: `parser error: ${error instanceof Error ? error.message : String(error)}` })
    }
    return this.em.take()
  }

  private handleLine(line: string, offset: number): void {
    const em = this.em
    if (line.trim() === '') return
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch (error) {
      em.skip(offset, `invalid JSON (${error instanceof Error ? error.message : 'parse error'}; a truncated or corrupted line)`)
      return
    }
    // The format before lines were wrapped in {timestamp, type, payload}.
    const legacy = legacyLine(json)
    if (legacy) return handleLegacyLine(em, legacy, offset)
    const parsed = RolloutLineSchema.safeParse(json)
    if (!parsed.success) {
      em.skip(offset, `not a rollout line {timestamp, type, payload}: ${describeIssues(parsed.error)}`)
      return
    }
    const { type, payload } = parsed.data
    if (payload === undefined || payload === null) {
      em.skip(offset, `${type} line without a payload`)
      return
    }
    if (typeof payload !== 'object' || Array.isArray(payload)) {
      em.skip(offset, `${type} line whose payload is not an object`)
      return
    }
    const createdAt = parseTime(parsed.data.timestamp)
    switch (type) {
      case 'session_meta':
        return handleSessionMeta(em, payload, offset, createdAt)
      case 'turn_context':
        return handleTurnContext(em, payload, offset)
      case 'response_item':
        return handleResponseItem(em, payload, offset, createdAt)
      case 'event_msg':
        return handleEvent(em, payload, offset, createdAt)
      case 'compacted':
        return handleCompactedLine(em, payload, offset, createdAt)
      case 'inter_agent_communication':
        return handleInterAgentCommunication(em, payload, offset, createdAt)
      default:
        em.unread(offset, `line type "${type}"`)
    }
  }
}
