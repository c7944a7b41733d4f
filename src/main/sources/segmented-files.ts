import type { HistoryFile } from './adapter'
import type { ImportDeps } from './import-deps'
import { sameContent, sessionsOf } from './imported-content'
import type { SegmentRead } from './parse-thread/parse-chunks'
import type { ImportFileRow } from '../store/repositories/import-files'

/**
 * A history kept in several files (HistoryFile.segments: Codex rotates a long rollout, copying it
 * whole to an immutable segment and starting the rollout again with a reference to it). Its
 * import is one session, whichever of its files it read last.
 */

/** What is left to read of the segments, then where the file itself is read from. */
export interface SegmentedStart {
  start: number
  before: SegmentRead[]
}

/** The whole history, from the oldest segment's start (or the file's start, when it has none). */
export function fromTheStart(file: HistoryFile): SegmentedStart {
  const segments = file.segments
  return segments ? { start: segments.from, before: segments.pieces.map((piece) => ({ path: piece.path, start: piece.from })) } : { start: 0, before: [] }
}

/**
 * When the file no longer holds what its import read (the agent rotated it) but one of its
 * segments does, up to the import's offset: the import goes on from there, through the later
 * segments, into the file past its header. The session stays, no line is read twice, and the
 * messages read before the rotation now name the segment that holds them (at the same offsets:
 * a segment is a copy of the file). Null when no segment holds it.
 */
export function continueSegments(deps: ImportDeps, file: HistoryFile, known: ImportFileRow): SegmentedStart | null {
  const pieces = file.segments?.pieces ?? []
  for (let index = pieces.length - 1; index >= 0; index--) {
    const piece = pieces[index]
    if (!piece || !holds(piece.path, known)) continue
    const later = pieces.slice(index + 1).map((next) => ({ path: next.path, start: next.from }))
    deps.store.transaction(() => {
      for (const session of sessionsOf(deps, known)) deps.store.messages.repointSourceFile(session, known.path, piece.path)
    })
    return { start: file.segments?.from ?? 0, before: [{ path: piece.path, start: known.offset }, ...later] }
  }
  return null
}

function holds(path: string, known: ImportFileRow): boolean {
  try {
    return sameContent(path, known).same
  } catch {
    return false // gone since discovery: not this one
  }
}
