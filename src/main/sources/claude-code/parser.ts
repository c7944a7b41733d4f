import { CONVERSATION_LINE_TYPES, KNOWN_CONVERSATION_FIELDS } from './known-fields'
import type { LineParser, SourceRecord } from '../records'
import { deltaRecord, snapshotRecord } from './file-history'
import { AiTitleLineSchema, CustomTitleLineSchema, LineBaseSchema, SummaryLineSchema } from './schema'
import { Line } from './line'
import { ParserState } from './state'
import { savedOutputReader } from './saved-output'

/**
 * Claude Code history lines → source records (docs/formats.md §2.1). Pure: one line in, records out,
 * never throws; what a resumed import needs is in `state()`.
 *
 * Line types read: `user`, `assistant`, `system`, `summary`, `custom-title`, `ai-title`,
 * `file-history-snapshot`, `file-history-delta`, `pr-link` (a note).
 *
 * Deliberately ignored, producing no record (their uuid, when they have one, is remembered so
 * that a message whose `parentUuid` names them gets the nearest message above instead):
 * - `progress`: streaming snapshots of running tools and sub-agents, often megabytes; the
 *   sub-agent transcripts they duplicate are read from the agents' own files. An `agent_progress`
 *   line gives only a link: which call started the sub-agent it names.
 * - `queue-operation`: prompts queued while the agent worked; the prompt itself arrives later
 *   as a `user` line.
 * - `last-prompt`, `permission-mode`, `mode`, `agent-name`, `agent-setting`, `agent-color`,
 *   `worktree-state`, `fork-context-ref`, `relocated`, `frame-link`, `bridge-session`, `tag`,
 *   `atis-latch` (a status string for the UI): UI and resume bookkeeping (the following
 *   conversation lines carry cwd and branch).
 * - `cost-state`: Claude Code's running cost totals, rewritten as the session goes; they include
 *   background calls (titles, classification) no message shows, and Retrace counts usage from
 *   the messages themselves.
 * - `attachment`: hook output, diagnostics and plan files injected into the context; none of it
 *   is something the user or the agent said.
 * - `system` subtypes `turn_duration`, `microcompact_boundary`, `compact_boundary` (its metadata
 *   goes onto the compaction record of the summary line after it) and `stop_hook_summary`
 *   unless a hook failed or stopped the agent.
 * - `user` lines whose only content is empty text, and `local-command-stdout` with no output.
 *
 * A tool result whose output Claude Code moved to `<session>/tool-results/` shows that file's
 * content (when the parser is made for a file: `createParser(state, { path })`).
 *
 * A well-formed line of a type not listed here, a system subtype without text or an assistant
 * block of an unknown type gives an `unread` record (counted by Claude Code version in the
 * import report); a line that is not JSON or lacks a field its type needs gives a `skipped`
 * record with the reason.
 */
export function createClaudeCodeParser(saved?: unknown, file?: { path: string }): LineParser {
  const state = new ParserState(saved)
  // Outputs moved to `<session>/tool-results/` are read back from there (saved-output.ts).
  if (file) state.savedOutput = savedOutputReader(file.path)
  return {
    feed(line, offset) {
      try {
        return parseLine(state, line, offset)
      } catch (error) {
        // A bug here must not stop an import: report the line and go on.
        return [{ kind: 'skipped', offset, reason: `parser error: ${error instanceof Error ? error.message : String(error)}` }]
      }
    },
    state() {
      return state.toJSON()
    }
  }
}

const IGNORED_TYPES: ReadonlySet<string> = new Set([
  'progress',
  'queue-operation',
  'last-prompt',
  'permission-mode',
  'mode',
  'agent-name',
  'agent-setting',
  'agent-color',
  'worktree-state',
  'fork-context-ref',
  'relocated',
  'frame-link',
  'bridge-session',
  'tag',
  'attachment',
  'atis-latch',
  'cost-state'
])

function parseLine(state: ParserState, line: string, offset: number): SourceRecord[] {
  if (line.trim() === '') return []
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (error) {
    return [{ kind: 'skipped', offset, reason: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` }]
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return [{ kind: 'skipped', offset, reason: 'not a JSON object' }]
  }
  const base = LineBaseSchema.safeParse(json)
  if (!base.success) {
    const type = (json as { type?: unknown }).type
    return [{ kind: 'skipped', offset, reason: type === undefined ? 'line has no "type"' : `line "type" is not a string` }]
  }
  const current = new Line(state, base.data, json, offset)
  switch (base.data.type) {
    case 'user':
      current.user()
      break
    case 'assistant':
      current.assistant()
      break
    case 'system':
      current.system()
      break
    case 'summary':
      current.summary(SummaryLineSchema.safeParse(json))
      break
    case 'custom-title':
      current.title(CustomTitleLineSchema.safeParse(json), 'custom', (data) => data.customTitle)
      break
    case 'ai-title':
      current.title(AiTitleLineSchema.safeParse(json), 'ai', (data) => data.aiTitle)
      break
    case 'file-history-snapshot':
      current.records.push(snapshotRecord(json, offset))
      break
    case 'file-history-delta':
      current.records.push(deltaRecord(json, offset))
      break
    case 'pr-link':
      current.prLink()
      break
    case 'progress':
      current.agentProgress()
      break
    default:
      if (!IGNORED_TYPES.has(base.data.type)) current.unread(`line type "${base.data.type}"`)
  }
  if (CONVERSATION_LINE_TYPES.has(base.data.type)) {
    for (const field of Object.keys(json)) if (!KNOWN_CONVERSATION_FIELDS.has(field)) current.unread(`field "${field}" of ${base.data.type} lines`)
  }
  const records = current.finish()
  const started = current.lineStart()
  const rewind = started && state.rewinds.observe(started, offset)
  // Before the new line's records: the line that was left is split off first.
  return rewind ? [rewind, ...records] : records
}
