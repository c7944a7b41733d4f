import { closeSync, openSync, statSync } from 'node:fs'
import { decodedIdentity, isCompressed } from './compressed-files'
import type { ImportDeps } from './import-deps'
import { readImportState } from './import-state'
import { HEAD_BYTES, headHash, TAIL_BYTES, tailHash } from './parse-thread/parse-chunks'
import type { ImportFileRow } from '../store/repositories/import-files'

// What an import read of a file, and what it wrote: the checks and the drop that moved,
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

/** Drop what was imported from a file that has been replaced, so it can be read again from the start. */
export function forget(deps: ImportDeps, known: ImportFileRow): void {
  deps.store.transaction(() => {
    for (const rowId of sessionsOf(deps, known)) deps.store.sessions.delete(rowId)
    deps.store.importFiles.delete(known.id)
  })
}

/** The sessions an import wrote (its main session, sub-agents and branches), by row id. */
export function sessionsOf(deps: ImportDeps, known: ImportFileRow): number[] {
  const state = readImportState(known.importState)
  return [state.sessionUid, ...Object.values(state.subAgents), ...Object.values(state.branches)].flatMap((uid) => {
    const session = uid ? deps.store.sessions.get(uid) : undefined
    return session ? [session.rowId] : []
  })
}
