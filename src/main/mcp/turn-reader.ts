import { z } from 'zod'
import { FileChangeSchema, MessageSchema, NotCapturedChangeSchema, RetraceError, RewindCoverageSchema, SessionIdSchema, SourceIdSchema, type Message, type MethodOutput } from '../../shared/contract'
import type { CliCall } from '../cli/call'
import { formatTime } from '../cli/format'
import { cut } from './context'
import { coverageLabel, EMPTY_COVERAGE } from '../../shared/coverage'

/** Long prompts, answers and tool results are cut: a model reads this, and its context is finite. */
const MAX_TEXT = 16_000
const MAX_TOOL_RESULT = 1_000
/** A tool call's input longer than this as JSON (a whole file a Write carried) is given as its JSON text, cut. */
const MAX_TOOL_INPUT = 4_000

export const TurnSchema = z.object({
  sessionId: SessionIdSchema,
  sessionTitle: z.string(),
  source: SourceIdSchema,
  turn: z.number().int().positive(),
  turnCount: z.number().int().nonnegative(),
  startedAt: z.number().int().nullable(),
  /** The user's words (several messages joined). */
  prompt: z.string(),
  /** What the agent answered in words (its tool calls apart). */
  answer: z.string(),
  toolCalls: z.array(
    z.object({
      name: z.string(),
      /** The call's arguments; past a few thousand characters, their JSON text, cut. */
      input: MessageSchema.shape.toolInput,
      isError: z.boolean(),
      /** The start of what the tool returned; null when the transcript holds no result. */
      result: z.string().nullable()
    })
  ),
  filesChanged: z.array(FileChangeSchema.pick({ path: true, op: true, from: true, added: true, removed: true, observed: true })),
  /** Shell commands that may have changed files no tool reported (imported sessions). */
  uncapturedCommands: z.number().int().nonnegative(),
  /** File changes the agent's history shows that Retrace could not journal, with why (R42). */
  notCaptured: z.array(NotCapturedChangeSchema.omit({ turn: true })),
  /** How much of the turn a rewind can put back. */
  coverage: RewindCoverageSchema
})
export type Turn = z.infer<typeof TurnSchema>

/** One turn of a session: its prompt, answer, tool calls and the files it changed. */
export async function readTurn(call: CliCall, sessionId: string, turn: number): Promise<Turn> {
  const session = await call('sessions.get', { sessionId })
  if (turn > session.turnCount) {
    throw new RetraceError('NOT_FOUND', `“${session.title}” has ${session.turnCount} turn${session.turnCount === 1 ? '' : 's'}; there is no turn ${turn}.`)
  }
  const messages = await messagesOfTurn(call, sessionId, turn)
  const results = new Map(messages.filter((m) => m.role === 'tool_result' && m.toolCallId !== null).map((m) => [m.toolCallId, m]))
  const changes = await call('changes.ofTurn', { sessionId, turn })
  const checkpoint = session.checkpoints.find((c) => c.turn === turn)
  const joined = (role: Message['role']) => cut(messages.filter((m) => m.role === role).map((m) => m.content.trim()).filter(Boolean).join('\n\n'), MAX_TEXT)
  return {
    sessionId,
    sessionTitle: session.title,
    source: session.source,
    turn,
    turnCount: session.turnCount,
    startedAt: messages[0]?.createdAt ?? null,
    prompt: joined('user'),
    answer: joined('assistant'),
    toolCalls: messages
      .filter((m) => m.role === 'tool_call')
      .map((m) => {
        const result = m.toolCallId !== null ? results.get(m.toolCallId) : undefined
        return { name: m.toolName ?? '?', input: boundedInput(m.toolInput), isError: m.isError || (result?.isError ?? false), result: result ? cut(result.content, MAX_TOOL_RESULT) : null }
      }),
    filesChanged: changes.items.map(({ path, op, from, added, removed, observed }) => ({ path, op, from, added, removed, observed })),
    uncapturedCommands: checkpoint?.uncapturedCommands ?? 0,
    notCaptured: (checkpoint?.notCaptured ?? []).map(({ tool, path, reason }) => ({ tool, path, reason })),
    coverage: checkpoint?.coverage ?? { ...EMPTY_COVERAGE, agentKeepsNoContent: session.coverage.agentKeepsNoContent }
  }
}

function boundedInput(input: Message['toolInput']): Message['toolInput'] {
  const json = JSON.stringify(input) ?? ''
  return json.length > MAX_TOOL_INPUT ? cut(json, MAX_TOOL_INPUT) : input
}

/**
 * The display messages of one turn, in order. Turn numbers only grow along the transcript, so
 * paging stops at the first message past it.
 */
async function messagesOfTurn(call: CliCall, sessionId: string, turn: number): Promise<Message[]> {
  const found: Message[] = []
  let cursor: string | null = null
  do {
    const page: MethodOutput<'transcript.page'> = await call('transcript.page', { sessionId, direction: 'after', cursor, limit: 500 })
    for (const message of page.items) {
      if (message.turn > turn) return found
      if (message.turn === turn) found.push(message)
    }
    cursor = page.afterCursor
  } while (cursor)
  return found
}

/** The turn as a model reads it: prompt, answer, tool calls one per line, files changed. */
export function turnText(turn: Turn): string {
  const lines = [`Turn ${turn.turn} of ${turn.turnCount} of “${turn.sessionTitle}” (${turn.source}, session ${turn.sessionId}), ${formatTime(turn.startedAt)}`, '', 'Prompt:', indent(turn.prompt || '(none)'), '', 'Answer:', indent(turn.answer || '(no text)')]
  if (turn.toolCalls.length > 0) {
    lines.push('', `Tool calls (${turn.toolCalls.length}):`)
    for (const tool of turn.toolCalls) lines.push(`  ${tool.name}${tool.isError ? ' [error]' : ''} ${cut(JSON.stringify(tool.input) ?? '', 200)}`)
  }
  lines.push('', turn.filesChanged.length > 0 ? `Files changed (${turn.filesChanged.length}):` : 'Files changed: none recorded.')
  for (const change of turn.filesChanged) {
    const lineCounts = change.added === null ? 'binary' : `+${change.added} -${change.removed ?? 0}`
    lines.push(`  ${change.op} ${change.from ? `${change.from.path} → ` : ''}${change.path} (${lineCounts}, seen by ${change.observed})`)
  }
  if (turn.uncapturedCommands > 0) lines.push(`  and ${turn.uncapturedCommands} shell command${turn.uncapturedCommands === 1 ? '' : 's'} whose file changes were not captured`)
  if (turn.notCaptured.length > 0) lines.push('', `Not captured (${turn.notCaptured.length}; a rewind leaves these as they are):`)
  for (const change of turn.notCaptured) lines.push(`  ${change.tool} ${change.path ?? '(no path)'}: ${change.reason}`)
  lines.push('', `Rewind coverage: ${coverageLabel(turn.coverage)}.`)
  return lines.join('\n')
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}
