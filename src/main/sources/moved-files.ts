import { statSync } from 'node:fs'
import type { HistoryFile } from './adapter'
import type { ImportBatch } from './import-batch'
import type { ImportDeps } from './import-deps'
import { readAgain, sameContent, sessionsOf } from './imported-content'
import { continueSegments, fromTheStart, type SegmentedStart } from './segmented-files'
import type { ImportFileRow } from '../store/repositories/import-files'

/** Where a planned file's import starts: its earlier import (if any), its offset, and the segments read first. */
export type PlannedStart = { known: ImportFileRow | undefined } & SegmentedStart

/**
 * A file with no import of its own whose content an import at another path read (same
 * `contentKey`: Codex archived the rollout, compressed it, or decompressed it to write on): when
 * the file holds what that import read, the import moves to it and continues from its offset
 * (null: nothing new), so no line is read twice and the session stays the one it was. So it does
 * when one of the file's segments holds it (segmented-files.ts: the rollout was rotated too).
 * An import of one of the file's segments at its own path (a writer that started the rollout
 * anew beside the old one) is continued the same way.
 * When neither does, this file is read again from the start (of its oldest segment) into the
 * sessions the earlier import wrote, which keep every message (imported-content.ts `readAgain`).
 * Without a key, or no such import, the file is read from the start.
 */
export function planMovedFile(deps: ImportDeps, workspace: { id: number }, file: HistoryFile, batch: ImportBatch): PlannedStart | null {
  const earlier = earlierImport(deps, workspace, file)
  if (!earlier) return { known: undefined, ...fromTheStart(file) }
  const stat = statSync(file.path)
  const content = sameContent(file.path, earlier)
  const moved = { ...earlier, path: file.path, dev: stat.dev, ino: stat.ino, mtimeMs: null, fileSize: null }
  batch.commit() // what is queued goes first, before the import moves (or starts again)
  if (!content.same) {
    const continued = continueSegments(deps, file, earlier)
    deps.store.importFiles.move(earlier.id, file.path, stat)
    if (continued) return { known: moved, ...continued }
    // Read again from the start at its new path, into the sessions it wrote (they stay).
    const again = readAgain(deps, moved)
    return again && { known: again, ...fromTheStart(file) }
  }
  deps.store.transaction(() => {
    deps.store.importFiles.move(earlier.id, file.path, stat)
    for (const session of sessionsOf(deps, earlier)) deps.store.messages.repointSourceFile(session, earlier.path, file.path)
    if (earlier.offset === content.size) deps.store.importFiles.setModified(earlier.id, stat.mtimeMs, stat.size)
  })
  return earlier.offset === content.size ? null : { known: moved, start: earlier.offset, before: [] }
}

/** The import this file continues: one of its content elsewhere, or of one of its segments. */
function earlierImport(deps: ImportDeps, workspace: { id: number }, file: HistoryFile): ImportFileRow | undefined {
  const imports = deps.store.importFiles
  const [moved] = file.contentKey ? imports.withContentKey(workspace.id, file.source, file.contentKey).filter((row) => row.path !== file.path) : []
  if (moved) return moved
  for (const piece of [...(file.segments?.pieces ?? [])].reverse()) {
    const segment = imports.get(workspace.id, file.source, piece.path)
    if (segment) return segment
  }
  return undefined
}
