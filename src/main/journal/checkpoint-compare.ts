import { keyOf, type PathKey, type RelPath } from '../fs/paths'
import type { FileVersion, JournalEntry, JournalRepository } from '../store/repositories/journal'
import type { SessionRecord, SessionRepository } from '../store/repositories/sessions'
import { sideOf } from './queries'

/** A checkpoint of a session: its files before `turn` (turnCount + 1: after its last turn). */
export interface Checkpoint {
  session: SessionRecord
  turn: number
}

/** One path's version at each of two checkpoints (null: no file there). */
export interface ComparedPath {
  path: RelPath
  before: FileVersion | null
  after: FileVersion | null
}

/**
 * A session's own journal, and what it started from: a branch goes on from its parent's files
 * before the turn it branched at (its turns go on numbering from there); a sub-agent works
 * inside the turn that started it, so it starts from its parent's files after that turn.
 */
interface Lineage {
  byPath: Map<PathKey, (JournalEntry & { turn: number })[]>
  paths: Map<PathKey, RelPath>
  base: { lineage: Lineage; turn: number } | null
}

/** How deep a lineage is followed (forks nest at most RETRACE_MAX_FORK_DEPTH, 32 by default). */
const MAX_LINEAGE = 64

/**
 * The files that differ between two checkpoints of sessions of one workspace — a branch and its
 * parent at the same turn, typically: each side is the files as that session left them (its own
 * last change before the turn, else what it started from). A path only one side ever touched is,
 * on the other side, what the first side found before touching it. Sorted by path bytes.
 */
export function compareCheckpoints(repo: JournalRepository, sessions: SessionRepository, from: Checkpoint, to: Checkpoint): ComparedPath[] {
  const left = lineageOf(repo, sessions, from.session)
  const right = lineageOf(repo, sessions, to.session)
  const paths = new Map([...allPaths(left), ...allPaths(right)])
  const compared: ComparedPath[] = []
  for (const [key, path] of paths) {
    const { before, after } = bothSides(left, from.turn, right, to.turn, key, path)
    if (!sameVersion(before, after)) compared.push({ path, before, after })
  }
  return compared.sort((a, b) => Buffer.compare(a.path, b.path))
}

/** One path at two checkpoints of sessions of one workspace; undefined when neither side ever touched it. */
export function versionsAtCheckpoints(repo: JournalRepository, sessions: SessionRepository, from: Checkpoint, to: Checkpoint, path: RelPath): Omit<ComparedPath, 'path'> | undefined {
  const left = lineageOf(repo, sessions, from.session)
  const right = lineageOf(repo, sessions, to.session)
  const key = keyOf(path)
  if (!touched(left, key) && !touched(right, key)) return undefined
  return bothSides(left, from.turn, right, to.turn, key, path)
}

function bothSides(left: Lineage, leftTurn: number, right: Lineage, rightTurn: number, key: PathKey, path: RelPath): Omit<ComparedPath, 'path'> {
  // `null` is a side with no file there; `undefined`, a side that never touched the path.
  const either = (side: FileVersion | null | undefined, otherwise: () => FileVersion | null | undefined) => (side !== undefined ? side : (otherwise() ?? null))
  return {
    before: either(versionAt(left, leftTurn, key, path), () => earliest(right, key, path)),
    after: either(versionAt(right, rightTurn, key, path), () => earliest(left, key, path))
  }
}

function lineageOf(repo: JournalRepository, sessions: SessionRepository, session: SessionRecord, depth = 0): Lineage {
  const byPath = new Map<PathKey, (JournalEntry & { turn: number })[]>()
  const paths = new Map<PathKey, RelPath>()
  const add = (path: RelPath, entry: JournalEntry & { turn: number }) => {
    const key = keyOf(path)
    paths.set(key, path)
    const list = byPath.get(key)
    if (list) list.push(entry)
    else byPath.set(key, [entry])
  }
  // Oldest first (by turn, then as recorded): a rename is filed under both of its names.
  for (const entry of repo.sessionEntriesFrom(session.rowId, 1)) {
    add(entry.path, entry)
    if (entry.fromPath) add(entry.fromPath, entry)
  }
  const parent = session.parentId && depth < MAX_LINEAGE ? sessions.get(session.parentId) : undefined
  const base = parent ? { lineage: lineageOf(repo, sessions, parent, depth + 1), turn: baseTurn(session, parent) } : null
  return { byPath, paths, base }
}

function baseTurn(session: SessionRecord, parent: SessionRecord): number {
  if (session.kind === 'branch') return session.forkTurn ?? 1
  return (session.forkTurn ?? parent.turnCount) + 1
}

/** The path as this session left it before `turn`: its own last change, else what it started from, else what its first later change found. */
function versionAt(lineage: Lineage, turn: number, key: PathKey, path: RelPath): FileVersion | null | undefined {
  const own = lineage.byPath.get(key) ?? []
  const last = own.findLast((entry) => entry.turn < turn)
  if (last) return sideOf(last, path, 'after')
  if (lineage.base) {
    const inherited = versionAt(lineage.base.lineage, lineage.base.turn, key, path)
    if (inherited !== undefined) return inherited
  }
  const next = own.find((entry) => entry.turn >= turn)
  return next ? sideOf(next, path, 'before') : undefined
}

/** What the path was before this lineage first touched it (its oldest ancestor's first change first). */
function earliest(lineage: Lineage, key: PathKey, path: RelPath): FileVersion | null | undefined {
  const inherited = lineage.base ? earliest(lineage.base.lineage, key, path) : undefined
  if (inherited !== undefined) return inherited
  const first = lineage.byPath.get(key)?.[0]
  return first ? sideOf(first, path, 'before') : undefined
}

function touched(lineage: Lineage, key: PathKey): boolean {
  return lineage.byPath.has(key) || (lineage.base !== null && touched(lineage.base.lineage, key))
}

function allPaths(lineage: Lineage): Map<PathKey, RelPath> {
  return lineage.base ? new Map([...allPaths(lineage.base.lineage), ...lineage.paths]) : lineage.paths
}

function sameVersion(a: FileVersion | null, b: FileVersion | null): boolean {
  return a?.hash === b?.hash && a?.mode === b?.mode && a?.kind === b?.kind
}
