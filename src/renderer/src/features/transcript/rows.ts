import type { Message } from '../../../../shared/contract'
import { internalFlags, isCompactCommand } from './internals'

export type TranscriptRow =
  | { type: 'turn'; key: string; turn: number; at: number | null }
  | {
      type: 'message'
      key: string
      message: Message
      result: Message | null
      /** Claude Code's bookkeeping (internals.ts), shown dimmed. */
      internal?: boolean
      /** A compaction marker's `/compact …` command, folded into it. */
      compactCommand?: string
      /** The agent's file no longer holds it: Retrace kept it (SourceRef.notInFile). */
      notInFile?: boolean
    }
  /** A run of internals folded into one line (while the toggle hides them). */
  | { type: 'internals'; key: string; turn: number; messages: Message[] }
  /** Before a run of messages the agent's file no longer holds: a note saying so. */
  | { type: 'not-in-file'; key: string; turn: number }

/**
 * The loaded messages as virtual-list rows: a header wherever the turn changes, and each
 * tool result folded into the row of the call it answers (paired by toolCallId among the
 * loaded messages). A result whose call is not loaded (cut by a compaction, say) keeps a row
 * of its own so nothing disappears. Claude Code's internals (internals.ts) are folded into one
 * line per run, or shown dimmed with `showInternals`; a run holding `/compact` next to a
 * compaction marker is folded into that marker, which names the command. A run of messages the
 * agent's file no longer holds (kept by Retrace when the file got shorter or was replaced) is
 * flagged, with a note before it; turn headers do not end a run.
 */
export function buildRows(messages: readonly Message[], { showInternals = false }: { showInternals?: boolean } = {}): TranscriptRow[] {
  const rows = messageRows(messages)
  const internal = internalFlags(messages)
  const flagged = new Set(messages.filter((_, index) => internal[index]).map((message) => message.id))
  const out: TranscriptRow[] = []
  let run: Extract<TranscriptRow, { type: 'message' }>[] = []
  /** The run just ended: into the compaction marker beside it, or one folded line. */
  const flush = (next: TranscriptRow | undefined) => {
    if (run.length === 0) return
    const compact = run.find((row) => isCompactCommand(row.message))
    const previous = out.at(-1)
    const marker = [previous, next].find((row) => row?.type === 'message' && row.message.role === 'compaction_summary')
    if (compact && marker?.type === 'message') marker.compactCommand = compact.message.content.trim()
    if (showInternals) out.push(...run)
    else if (!(compact && marker)) out.push({ type: 'internals', key: `internals-${run[0]?.message.id}`, turn: run[0]?.message.turn ?? 0, messages: run.map((row) => row.message) })
    run = []
  }
  for (const row of rows) {
    if (row.type === 'message' && flagged.has(row.message.id)) {
      row.internal = true
      run.push(row)
      continue
    }
    // A turn header opened only by a `/compact` prompt goes with it.
    flush(row)
    out.push(row)
  }
  flush(undefined)
  return withNotInFileNotes(dropEmptyTurns(out))
}

function isNotInFile(message: Message): boolean {
  return message.sourceRef !== null && 'file' in message.sourceRef && message.sourceRef.notInFile === true
}

function withNotInFileNotes(rows: TranscriptRow[]): TranscriptRow[] {
  if (!rows.some((row) => row.type === 'message' && isNotInFile(row.message))) return rows
  const out: TranscriptRow[] = []
  let inRun = false
  for (const row of rows) {
    if (row.type === 'message' || row.type === 'internals') {
      const kept = row.type === 'message' ? isNotInFile(row.message) : row.messages.every(isNotInFile)
      if (kept && row.type === 'message') row.notInFile = true
      if (kept && !inRun) out.push({ type: 'not-in-file', key: `not-in-file-${row.key}`, turn: turnOfRow(row) })
      inRun = kept
    }
    out.push(row)
  }
  return out
}

/** A turn header with nothing left below it (its one message, `/compact`, folded into the marker). */
function dropEmptyTurns(rows: TranscriptRow[]): TranscriptRow[] {
  return rows.filter((row, index) => row.type !== 'turn' || (rows[index + 1] !== undefined && rows[index + 1]?.type !== 'turn') || index === rows.length - 1)
}

function messageRows(messages: readonly Message[]): Extract<TranscriptRow, { type: 'turn' | 'message' }>[] {
  const callIds = new Set<string>()
  const results = new Map<string, Message>()
  for (const message of messages) {
    if (!message.toolCallId) continue
    if (message.role === 'tool_call') callIds.add(message.toolCallId)
    else if (message.role === 'tool_result' && !results.has(message.toolCallId)) results.set(message.toolCallId, message)
  }

  const rows: Extract<TranscriptRow, { type: 'turn' | 'message' }>[] = []
  let turn: number | null = null
  for (const message of messages) {
    if (message.turn !== turn) {
      turn = message.turn
      rows.push({ type: 'turn', key: `turn-${message.turn}-${message.seq}`, turn: message.turn, at: message.createdAt })
    }
    if (message.role === 'tool_result' && message.toolCallId && callIds.has(message.toolCallId)) continue
    const result = message.role === 'tool_call' && message.toolCallId ? (results.get(message.toolCallId) ?? null) : null
    rows.push({ type: 'message', key: `m-${message.id}`, message, result })
  }
  return rows
}

/** The row showing message `seq` (a folded result shows in its call's row), or -1. */
export function rowIndexOfSeq(rows: readonly TranscriptRow[], seq: number): number {
  return rows.findIndex((row) =>
    row.type === 'internals' ? row.messages.some((message) => message.seq === seq) : row.type === 'message' && (row.message.seq === seq || row.result?.seq === seq)
  )
}

/** The header row of `turn`, or -1 (not loaded yet, or no such turn). */
export function rowIndexOfTurn(rows: readonly TranscriptRow[], turn: number): number {
  return rows.findIndex((row) => row.type === 'turn' && row.turn === turn)
}

export function turnOfRow(row: TranscriptRow): number {
  return row.type === 'message' ? row.message.turn : row.turn
}

/**
 * Where j / k go from the row at the top of the viewport: the next turn's header, or back to
 * the start of the turn being read (the previous turn's when its header is already at the top).
 * Null when there is nowhere to go.
 */
export function turnStep(
  at: { turn: number; headerAtTop: boolean } | null,
  direction: 1 | -1,
  bounds: { first: number; last: number }
): number | null {
  if (!at) return direction === 1 ? bounds.first : null
  const target = direction === 1 ? at.turn + 1 : at.headerAtTop ? at.turn - 1 : at.turn
  return target < bounds.first || target > bounds.last ? null : target
}
