import { closeSync, openSync, statSync } from 'node:fs'
import { decodedIdentity, isCompressed } from './compressed-files'
import type { ImportDeps } from './import-deps'
import { readImportState, type FileImportState } from './import-state'
import { HEAD_BYTES, headHash, TAIL_BYTES, tailHash } from './parse-thread/parse-chunks'
import { NOTHING_READ, type ImportFileRow } from '../store/repositories/import-files'
import type { SessionRecord } from '../store/repositories/sessions'

// What an import read of a file, and what it wrote: the checks and the new read that moved,
// segmented and rewritten files share (moved-files.ts, segmented-files.ts, file-importer.ts).

/**
 * The file holds, up to the import's offset, what the import read: not shorter, same first
 * bytes and same bytes just before the offset (decoded bytes, for a compressed file). Its size
 * (decoded) says whether more follows.
 */
export function sameContent(path: string, known: Pick<ImportFileRow, 'offset' | 'headSha256' | 'tailSha256'>): { same: boolean; size: number } {
  if (isCompressed(path)) {
    const decoded = decodedIdentity(path, known.offset, HEAD_BYTES, TAIL_BYTES)
    return { same: decoded.size >= known.offset && decoded.head === known.headSha256 && (known.tailSha256 === null || decoded.tail === known.tailSha256), size: decoded.size }
  }
  const fd = openSync(path, 'r')
  try {
    const { size } = statSync(path)
    if (size < known.offset || headHash(fd, Math.min(HEAD_BYTES, known.offset)) !== known.headSha256) return { same: false, size }
    return { same: known.tailSha256 === null || tailHash(fd, known.offset) === known.tailSha256, size }
  } finally {
    closeSync(fd)
  }
}

/**
 * The file no longer holds what its import read (cut short, an older copy restored, rewritten in
 * place): it is read again from its start into the sessions that import wrote, which stay, with
 * their ids, their forks and every message. Each message read from it is marked as not in the
 * file until the new read finds it there again; what the file holds that is new is added
 * (kept-messages.ts). Its unread-record counts start afresh. Returns the import to continue,
 * from the start, or null when another process on the data folder moved it on or started it
 * again first (that one reads it).
 */
export function readAgain(deps: ImportDeps, known: ImportFileRow): ImportFileRow | null {
  const importState = { ...readImportState(known.importState), reread: { known: true }, incompleteLineReported: null }
  const sessions = importedSessions(deps, known)
  const again = deps.store.transaction(() => {
    if (!deps.store.importFiles.restart(known.id, known.offset, importState)) return null
    for (const session of sessions) {
      // A branch starts with a copy of the session it branches from: those lines are its parent's.
      deps.store.messages.markNotInFile(session.rowId, session.kind === 'branch' ? (session.forkSeq ?? 0) : 0)
    }
    deps.store.unreadRecords.replace(known.id, [])
    return { ...known, offset: 0, parserState: null, headSha256: NOTHING_READ, tailSha256: null, mtimeMs: null, fileSize: null, importState }
  })
  if (again) deps.recorder.announce(known.workspaceId, ...sessions.map((session) => session.id))
  return again
}

/** The sessions an import wrote (its main session, sub-agents and branches), by row id. */
export function sessionsOf(deps: ImportDeps, known: Pick<ImportFileRow, 'importState'>): number[] {
  return importedSessions(deps, known).map((session) => session.rowId)
}

/** The ids of the sessions an import wrote: its main session, sub-agents and branches. */
export function sessionUidsOf(state: FileImportState): string[] {
  return [state.sessionUid, ...Object.values(state.subAgents), ...Object.values(state.branches)].filter((uid) => uid !== null)
}

function importedSessions(deps: ImportDeps, known: Pick<ImportFileRow, 'importState'>): SessionRecord[] {
  return sessionUidsOf(readImportState(known.importState)).flatMap((uid) => {
    const session = deps.store.sessions.get(uid)
    return session ? [session] : []
  })
}
