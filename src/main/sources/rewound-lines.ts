import { createHash } from 'node:crypto'
import type { Store } from '../store/store'
import { titleFromPrompt } from '../transcripts/session-writer'
import type { HistoryFile } from './adapter'
import type { FileImportState } from './import-state'
import type { AgentRewindRecord } from './records'

/** A session split in two: the line the agent went on with stays, the line the user left is `branchUid`. */
export interface SplitLine {
  branchUid: string
}

/**
 * The user went back inside the agent: the line of the file's session that went on from the
 * abandoned message moves to a branch of its own, labelled as rewound in the agent, and the
 * session continues from the fork point with the records that follow. The branch starts at the
 * fork turn with a copy of the session before it (like a fork made in Retrace) and keeps the
 * left line's turns, checkpoints and file changes, so they stay rewindable there; the session no
 * longer shows them. Nothing happens when the abandoned message is not on the session's line
 * (a fork copy's lines, or a line left earlier).
 *
 * The caller forgets the session's writer afterwards: the session's counters change under it.
 */
export function splitRewoundLine(
  store: Store,
  workspaceId: number,
  file: HistoryFile,
  state: FileImportState,
  record: AgentRewindRecord,
  closeOpenTurn: () => void
): SplitLine | null {
  const mainUid = state.sessionUid
  const main = mainUid ? store.sessions.get(mainUid) : undefined
  const left = main ? store.messages.bySourceUid(main.rowId, record.abandonedUid) : undefined
  if (!main || !left) return null
  // A fork of another session starts with a copy of that session's lines: not this file's to split.
  if (main.kind === 'branch' && main.forkSeq !== null && left.seq < main.forkSeq) return null
  const sourceSessionId = `${file.sessionId}@${record.abandonedUid}`
  if (store.sessions.bySourceId(workspaceId, file.source, sourceSessionId)) return null
  // The left line's last turn gets its checkpoint before it moves.
  closeOpenTurn()
  const branchUid = stableUid(workspaceId, file.source, sourceSessionId)
  const branchRowId = store.sessions.insert({
    uid: branchUid,
    workspaceId,
    source: file.source,
    sourceSessionId,
    title: '',
    kind: 'branch',
    parentRowId: main.rowId,
    forkSeq: left.seq,
    depth: main.depth + 1,
    model: main.model,
    cwd: main.cwd,
    createdAt: left.createdAt ?? main.createdAt,
    rewoundInAgent: true
  })
  const midTurn = left.role !== 'user'
  store.messages.copyPrefix(main.rowId, branchRowId, left.seq)
  store.checkpoints.copyBefore(main.rowId, branchRowId, left.turn)
  store.splits.moveTail({ fromRowId: main.rowId, toRowId: branchRowId, seq: left.seq, turn: left.turn, midTurn })
  // Named after the prompt the user left (a retried answer: the prompt both answers share).
  const prompt = store.splits.promptOfTurn(branchRowId, left.turn)
  if (prompt) store.sessions.setTitle(branchRowId, titleFromPrompt(prompt))
  moveUncounted(state, main.id, branchUid, left.turn)
  state.branches[record.abandonedUid] = branchUid
  return { branchUid }
}

/** Shell commands counted on the left turns go with them. */
function moveUncounted(state: FileImportState, fromUid: string, toUid: string, fromTurn: number): void {
  const turns = state.uncaptured[fromUid]
  if (!turns) return
  for (const [turn, commands] of Object.entries(turns)) {
    if (Number(turn) < fromTurn) continue
    const moved = (state.uncaptured[toUid] ??= {})
    moved[turn] = (moved[turn] ?? 0) + commands
    delete turns[turn]
  }
}

/**
 * A branch's id follows from what it is (the workspace, the source and the message its line
 * starts at), so importing the file again from scratch gives the branch the id it had: a window
 * or a link that showed it still finds it.
 */
function stableUid(workspaceId: number, source: string, sourceSessionId: string): string {
  const hex = createHash('sha256').update(`${workspaceId}\n${source}\n${sourceSessionId}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
