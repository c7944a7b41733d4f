import { isAbsolute, resolve } from 'node:path'
import type { SourceRecord } from '../records'
import type { ParserState } from './parser-state'
import { fileSnapshotLookup } from './file-snapshots'
import { rewindSnapshotLookup, type BeforeLookup } from './rewind-snapshots'

/**
 * An `edit` call says only what it replaced, so Retrace knows the file's earlier content only if
 * the session created or journaled it before. Copilot's rewind snapshot of the turn's prompt holds
 * what every file was then: the first edit of a path in a turn takes its `before` from it, so a
 * file that existed before the session becomes rewindable. Later edits of the path in the turn
 * follow from the journaled content. Run on each line's records, in order.
 */
export function withSnapshotBefore(state: ParserState, records: SourceRecord[], beforeOf: BeforeLookup | undefined): SourceRecord[] {
  for (const [index, record] of records.entries()) {
    if (record.kind === 'message' && record.role === 'user' && record.startsTurn && record.agentId === null && record.uid !== null) {
      state.turnEventId = record.uid
      state.turnPaths = []
      continue
    }
    if (record.kind !== 'file-edit') continue
    const path = isAbsolute(record.path) || state.cwd === null ? record.path : resolve(state.cwd, record.path)
    if (state.turnPaths.includes(path)) continue
    state.turnPaths.push(path)
    if (record.before !== undefined || !beforeOf || state.turnEventId === null) continue
    const before = beforeOf(state.turnEventId, path)
    if (before !== undefined) records[index] = { ...record, before }
  }
  return records
}

/** Both kinds of rewind snapshot a session folder may hold: the newer per-tool one first, then the git one. */
export function snapshotLookup(sessionDir: string): BeforeLookup {
  const perTool = fileSnapshotLookup(sessionDir)
  const git = rewindSnapshotLookup(sessionDir)
  return (promptEventId, absolutePath) => {
    const known = perTool(promptEventId, absolutePath)
    return known !== undefined ? known : git(promptEventId, absolutePath)
  }
}
