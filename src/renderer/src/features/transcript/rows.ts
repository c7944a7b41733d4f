import type { Message } from '../../../../shared/contract'

export type TranscriptRow =
  | { type: 'turn'; key: string; turn: number; at: number | null }
  | { type: 'message'; key: string; message: Message; result: Message | null }

/**
 * The loaded messages as virtual-list rows: a header wherever the turn changes, and each
 * tool result folded into the row of the call it answers (paired by toolCallId among the
 * loaded messages). A result whose call is not loaded (cut by a compaction, say) keeps a row
 * of its own so nothing disappears.
 */
export function buildRows(messages: readonly Message[]): TranscriptRow[] {
  const callIds = new Set<string>()
  const results = new Map<string, Message>()
  for (const message of messages) {
    if (!message.toolCallId) continue
    if (message.role === 'tool_call') callIds.add(message.toolCallId)
    else if (message.role === 'tool_result' && !results.has(message.toolCallId)) results.set(message.toolCallId, message)
  }

  const rows: TranscriptRow[] = []
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
  return rows.findIndex((row) => row.type === 'message' && (row.message.seq === seq || row.result?.seq === seq))
}

/** The header row of `turn`, or -1 (not loaded yet, or no such turn). */
export function rowIndexOfTurn(rows: readonly TranscriptRow[], turn: number): number {
  return rows.findIndex((row) => row.type === 'turn' && row.turn === turn)
}

export function turnOfRow(row: TranscriptRow): number {
  return row.type === 'turn' ? row.turn : row.message.turn
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
