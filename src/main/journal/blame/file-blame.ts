import { RetraceError, type Blame, type BlameOrigin } from '../../../shared/contract'
import { displayPath, type RelPath } from '../../fs/paths'
import type { OriginEntry } from '../../store/repositories/file-origins'
import type { FileVersion } from '../../store/repositories/journal'
import type { Store } from '../../store/store'
import type { BlobStore } from '../blob-store'
import { MAX_DIFF_BYTES } from '../file-diff'
import { carryOrigins, splitLines, toRuns } from './carry-lines'
import { readDiskVersion, type DiskContent } from './disk-version'

/** How many renames back a file's lines are followed (a→b→c…). */
const MAX_RENAME_DEPTH = 8

/** A file's state as the walk reaches it: its version, its lines, and each line's origin. */
interface LineState {
  version: FileVersion | null
  lines: string[]
  origins: number[]
  /** Not text (binary, a link, too large): its lines are unknown. */
  opaque: 'binary' | 'symlink' | 'tooLarge' | null
}

const ABSENT: LineState = { version: null, lines: [], origins: [], opaque: null }

/**
 * Blame one workspace file: walk every version the journal recorded of it, across sessions and
 * sources, in time order, line-diffing each against the one before and carrying each line's
 * origin forward; then the file on disk. A change the journal did not see a turn make (the
 * next entry's "before" differs from the last "after") is blamed on no turn: `outside`.
 */
export class FileBlame {
  private readonly origins: BlameOrigin[] = []
  private readonly originKeys = new Map<string, number>()
  /** The versions rewinds wrote: only those are kept as reached (keeping all 200 of a long history costs GC time). */
  private readonly restorable = new Set<string>()
  /** Each restorable version's lines and origins as first reached: what a rewind restoring it puts back. */
  private readonly reached = new Map<string, LineState>()
  private versions = 0

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly workspaceId: number
  ) {}

  run(path: RelPath): Blame {
    const workspace = this.store.workspaces.get(this.workspaceId)
    if (!workspace) throw new RetraceError('NOT_FOUND', `No workspace with id ${this.workspaceId}.`)
    const name = displayPath(path)
    const walked = this.walk(path, null, new Set(), 0)
    if (walked.entries === 0) throw new RetraceError('NOT_FOUND', `Retrace has no recorded change to ${name} in this workspace: no agent turn it knows of wrote it.`)
    let state = walked.state
    let deletedBy: number | null = null
    let disk: Blame['disk'] = 'same'
    const found = readDiskVersion(workspace.path, path)
    if (found.state === 'absent' || found.state === 'unreadable') {
      disk = 'absent'
      if (!state.version) {
        deletedBy = walked.deletedBy
        state = walked.beforeDeletion
      }
    } else if (found.hash === '' || found.hash !== state.version?.hash) {
      state = this.step(state, this.diskVersion(found), this.origin({ kind: 'disk' }, 'disk'), found.content)
      disk = 'changed'
    }
    this.refuseOpaque(state, name)
    return { path: name, lines: state.lines, origins: this.origins, runs: toRuns(state.origins), versions: this.versions, disk, deletedBy }
  }

  /** The path's state after every entry that sorts before `until`, following renames into it. */
  private walk(path: RelPath, until: Rank | null, visiting: Set<string>, depth: number) {
    visiting.add(path.toString('latin1'))
    const entries = sorted(this.store.fileOrigins.entriesOf(this.workspaceId, path)).filter(({ rank }) => until === null || earlier(rank, until))
    let state = ABSENT
    let beforeDeletion = ABSENT
    let deletedBy: number | null = null
    for (const { entry } of entries) if (entry.writer.scopeKind === 'rewind' && entry.after) this.restorable.add(entry.after.hash)
    for (const [index, { entry, rank }] of entries.entries()) {
      const renamedIn = entry.op === 'rename' && entry.path.equals(path) && entry.fromPath !== null && !entry.fromPath.equals(path)
      const before = entry.op === 'rename' ? (renamedIn ? null : entry.before) : entry.before
      const after = entry.op === 'rename' ? (renamedIn ? entry.after : null) : entry.after
      let previous = state
      if (renamedIn && entry.fromPath && depth < MAX_RENAME_DEPTH && !visiting.has(entry.fromPath.toString('latin1'))) {
        // The lines came with the file from its old name: blame them there, up to this rename.
        previous = this.walk(entry.fromPath, rank, visiting, depth + 1).state
        if (!sameContent(previous.version, entry.before)) previous = this.step(previous, entry.before, this.outsideOrigin(entry, previous === ABSENT), null)
      } else if (!sameContent(previous.version, before)) {
        previous = this.step(previous, before, this.outsideOrigin(entry, index === 0), null)
      }
      const writer = this.writerOrigin(entry)
      if (after === null && previous.version !== null) {
        beforeDeletion = previous
        deletedBy = writer
      }
      const restored = entry.writer.scopeKind === 'rewind' && after ? this.reached.get(after.hash) : undefined
      state = restored ?? this.step(previous, after, writer, null)
    }
    visiting.delete(path.toString('latin1'))
    return { state, beforeDeletion, deletedBy, entries: entries.length }
  }

  /** Move from `state` to `next`, blaming what changed on `writer`. `content`: next's bytes when already read. */
  private step(state: LineState, next: FileVersion | null, writer: number, content: Buffer | null): LineState {
    if (next === null) return ABSENT
    if (state.version && sameContent(state.version, next)) return state
    this.versions += 1
    const text = this.textOf(next, content)
    const result: LineState = text.opaque
      ? { ...text, version: next }
      : { version: next, lines: text.lines, origins: carryOrigins(state.lines, state.origins, text.lines, writer), opaque: null }
    if (this.restorable.has(next.hash) && !this.reached.has(next.hash)) this.reached.set(next.hash, result)
    return result
  }

  private textOf(version: FileVersion, content: Buffer | null): LineState {
    if (version.kind === 'symlink') return { ...ABSENT, opaque: 'symlink' }
    if (version.size > MAX_DIFF_BYTES || (content === null && version.hash === '')) return { ...ABSENT, opaque: 'tooLarge' }
    const text = decodeText(content ?? this.blobs.read(version.hash))
    return text === null ? { ...ABSENT, opaque: 'binary' } : { ...ABSENT, lines: splitLines(text) }
  }

  private diskVersion(found: Extract<DiskContent, { hash: string }>): FileVersion {
    return { kind: found.state, hash: found.hash, size: found.size, mode: 0 }
  }

  private refuseOpaque(state: LineState, name: string): void {
    if (state.opaque === 'binary') throw new RetraceError('VALIDATION', `${name} is a binary file: blame needs lines of text.`)
    if (state.opaque === 'symlink') throw new RetraceError('VALIDATION', `${name} is a symbolic link: blame needs a file of text.`)
    if (state.opaque === 'tooLarge') throw new RetraceError('VALIDATION', `${name} is over ${MAX_DIFF_BYTES / 1024 / 1024} MB: too large to blame.`)
  }

  private writerOrigin(entry: OriginEntry): number {
    const w = entry.writer
    if (w.scopeKind === 'rewind') return this.origin({ kind: 'rewind', createdAt: entry.createdAt, observed: 'rewind' }, `rewind:${entry.id}`)
    return this.origin(
      { kind: 'turn', sessionId: w.sessionId, sessionTitle: w.sessionTitle, source: w.source, turn: w.turn, prompt: w.prompt, createdAt: timeOf(entry), observed: entry.observed },
      `turn:${w.sessionId ?? ''}:${w.turn ?? ''}:${entry.observed}`
    )
  }

  /** A change no turn made, noticed by `entry` (its before side); `first`: the file was already there when the journal first saw it. */
  private outsideOrigin(entry: OriginEntry, first: boolean): number {
    const w = entry.writer
    const kind = first ? 'earlier' : 'outside'
    return this.origin({ kind, sessionId: w.sessionId, sessionTitle: w.sessionTitle, source: w.source, turn: w.turn, prompt: null, createdAt: timeOf(entry), observed: entry.observed }, `${kind}:${entry.id}`)
  }

  private origin(partial: Partial<BlameOrigin> & Pick<BlameOrigin, 'kind'>, key: string): number {
    const known = this.originKeys.get(key)
    if (known !== undefined) return known
    const origin: BlameOrigin = { sessionId: null, sessionTitle: null, source: null, turn: null, prompt: null, createdAt: null, observed: null, ...partial }
    this.origins.push(origin)
    this.originKeys.set(key, this.origins.length - 1)
    return this.origins.length - 1
  }
}

/**
 * When a change happened, for ordering sessions of every source: a turn's entries were recorded
 * when an import read them (later than they happened), so the turn's own time bounds them.
 */
function timeOf(entry: OriginEntry): number {
  return entry.writer.scopeKind === 'turn' && entry.writer.turnAt !== null ? Math.min(entry.createdAt, entry.writer.turnAt) : entry.createdAt
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The text of `bytes`, or null when it is not text: what file-diff.ts's `isText` decides (no NUL
 * in the first 8 KiB, valid UTF-8), in one decoding pass instead of a decode and a re-encode.
 */
function decodeText(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null
  try {
    return utf8.decode(bytes)
  } catch {
    return null
  }
}

/** Where an entry falls in time: its time, then the order recorded (ties). */
interface Rank {
  time: number
  id: number
}

const earlier = (a: Rank, b: Rank): boolean => a.time < b.time || (a.time === b.time && a.id < b.id)

/** Entries in time order, each with its rank (to take an old name's entries up to a rename). */
function sorted(entries: OriginEntry[]): { entry: OriginEntry; rank: Rank }[] {
  return entries.map((entry) => ({ entry, rank: { time: timeOf(entry), id: entry.id } })).sort((a, b) => (earlier(a.rank, b.rank) ? -1 : 1))
}

function sameContent(a: FileVersion | null, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b
  return a.hash === b.hash && a.kind === b.kind
}
