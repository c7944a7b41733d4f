import { closeSync, openSync, statSync } from 'node:fs'
import type { HistoryFile } from './adapter'
import { decodedIdentity, isCompressed } from './compressed-files'
import type { ImportBatch } from './import-batch'
import type { ImportDeps } from './import-deps'
import { readImportState } from './import-state'
import { HEAD_BYTES, headHash, TAIL_BYTES, tailHash } from './parse-thread/parse-chunks'
import type { ImportFileRow } from '../store/repositories/import-files'

/**
 * A file with no import of its own whose content an import at another path read (same
 * `contentKey`: Codex archived the rollout, compressed it, or decompressed it to write on): when
 * the file holds what that import read, the import moves to it and continues from its offset
 * (null: nothing new), so no line is read twice and the session stays the one it was. When it
 * holds something else, the earlier import is dropped and this file read from the start.
 * Without a key, or no such import, the file is read from the start.
 */
export function planMovedFile(deps: ImportDeps, workspace: { id: number }, file: HistoryFile, batch: ImportBatch): { known: ImportFileRow | undefined; start: number } | null {
  const [earlier] = file.contentKey ? deps.store.importFiles.withContentKey(workspace.id, file.source, file.contentKey).filter((row) => row.path !== file.path) : []
  if (!earlier) return { known: undefined, start: 0 }
  const stat = statSync(file.path)
  const content = sameContent(file.path, earlier)
  if (!content.same) {
    batch.commit()
    forget(deps, earlier)
    return { known: undefined, start: 0 }
  }
  const moved = { ...earlier, path: file.path, dev: stat.dev, ino: stat.ino, mtimeMs: null, fileSize: null }
  batch.commit() // what is queued goes first, as when an import is dropped
  deps.store.transaction(() => {
    deps.store.importFiles.move(earlier.id, file.path, stat)
    for (const session of sessionsOf(deps, earlier)) deps.store.messages.repointSourceFile(session, earlier.path, file.path)
    if (earlier.offset === content.size) deps.store.importFiles.setModified(earlier.id, stat.mtimeMs, stat.size)
  })
  return earlier.offset === content.size ? null : { known: moved, start: earlier.offset }
}

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
function sessionsOf(deps: ImportDeps, known: ImportFileRow): number[] {
  const state = readImportState(known.importState)
  return [state.sessionUid, ...Object.values(state.subAgents), ...Object.values(state.branches)].flatMap((uid) => {
    const session = uid ? deps.store.sessions.get(uid) : undefined
    return session ? [session.rowId] : []
  })
}
