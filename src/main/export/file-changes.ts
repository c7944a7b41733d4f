import { diffVersions, isText, type FileDiff } from '../journal/file-diff'
import type { FileJournal } from '../journal/file-journal'
import type { FileVersion, JournalEntry } from '../store/repositories/journal'
import { displayPath } from '../fs/paths'
import type { ExportDiff, ExportFileChange, FileContent } from './document-schema'

/**
 * Beyond this many lines (or bytes) a diff is cut, with the count of what was left out: one
 * generated lockfile must not turn a readable export into a 50 MB page.
 */
export const MAX_PATCH_LINES = 5_000
export const MAX_PATCH_BYTES = 512 * 1024
/** A file version larger than this is not carried by `--with-files` (its size and hash are). */
export const MAX_EXPORT_FILE_BYTES = 8 * 1024 * 1024
/** Everything `--with-files` carries together; later versions are left out with a note. */
export const MAX_EXPORT_FILES_TOTAL_BYTES = 96 * 1024 * 1024

const pathOf = (path: Buffer) => ({ path: displayPath(path), pathId: path.toString('base64') })

/**
 * The diffs an export needs, computed after its read snapshot and off the request thread (R27):
 * each change gets a placeholder that `settle` fills in. Contents are content-addressed, so a
 * diff read after the snapshot's transaction is the diff of the versions it named. Diffed a few
 * at a time, so a workspace of many changes never holds all their contents at once.
 */
export class PendingDiffs {
  private readonly jobs: { entry: JournalEntry; diff: ExportDiff }[] = []

  constructor(private readonly journal: FileJournal) {}

  /** A placeholder for `entry`'s diff, filled in by `settle`. */
  add(entry: JournalEntry): ExportDiff {
    const diff: ExportDiff = { kind: 'unavailable', added: null, removed: null, patch: '', omittedLines: 0 }
    this.jobs.push({ entry, diff })
    return diff
  }

  async settle(concurrency = 2): Promise<void> {
    const jobs = this.jobs.splice(0)
    const next = async (): Promise<void> => {
      for (let job = jobs.shift(); job; job = jobs.shift()) Object.assign(job.diff, await exportDiff(this.journal, job.entry))
    }
    await Promise.all(Array.from({ length: concurrency }, next))
  }
}

/** The session's file changes, turn by turn, each with its (capped) diff once `diffs` settles. */
export function exportFileChanges(diffs: PendingDiffs, entries: (JournalEntry & { turn: number })[]): ExportFileChange[] {
  return entries.map((entry) => ({
    turn: entry.turn,
    ...pathOf(entry.path),
    op: entry.op,
    from: entry.fromPath ? pathOf(entry.fromPath) : null,
    before: entry.before,
    after: entry.after,
    observed: entry.observed,
    diff: diffs.add(entry)
  }))
}

async function exportDiff(journal: FileJournal, entry: JournalEntry): Promise<ExportDiff> {
  let diff: FileDiff
  try {
    diff = await diffVersions(journal.blobs, entry.before, entry.after)
  } catch {
    // A snapshot the blob store cannot give back: the export says so instead of failing.
    return { kind: 'unavailable', added: null, removed: null, patch: '', omittedLines: 0 }
  }
  if (diff.tooLarge) return { kind: 'too-large', added: null, removed: null, patch: '', omittedLines: 0 }
  if (diff.binary) return { kind: 'binary', added: null, removed: null, patch: '', omittedLines: 0 }
  const symlink = entry.before?.kind === 'symlink' || entry.after?.kind === 'symlink'
  const { patch, omittedLines } = capPatch(diff.patch)
  // Past the bounds: the two versions side by side (one hunk, every old line then every new one), capped as any patch.
  if (diff.tooManyChanges) return { kind: 'too-many-changes', added: null, removed: null, patch, omittedLines }
  return symlink
    ? { kind: 'symlink', added: null, removed: null, patch, omittedLines }
    : { kind: 'text', added: diff.added, removed: diff.removed, patch, omittedLines }
}

/** Keep whole lines up to both caps. */
export function capPatch(patch: string): { patch: string; omittedLines: number } {
  if (patch.length <= MAX_PATCH_BYTES && !hasMoreLinesThan(patch, MAX_PATCH_LINES)) return { patch, omittedLines: 0 }
  const lines = patch.split('\n')
  let kept = 0
  let size = 0
  while (kept < lines.length && kept < MAX_PATCH_LINES && size + (lines[kept]?.length ?? 0) + 1 <= MAX_PATCH_BYTES) {
    size += (lines[kept]?.length ?? 0) + 1
    kept += 1
  }
  return { patch: lines.slice(0, kept).join('\n'), omittedLines: lines.length - kept }
}

function hasMoreLinesThan(text: string, limit: number): boolean {
  let index = -1
  for (let lines = 1; lines <= limit; lines++) {
    index = text.indexOf('\n', index + 1)
    if (index === -1) return false
  }
  return true
}

/**
 * The bytes of every version the changes name, keyed by hash (a version shared by two turns is
 * carried once): text as text, anything else as base64, each and all of them size-capped.
 */
export function exportFileContents(journal: FileJournal, changes: ExportFileChange[]): Record<string, FileContent> {
  const contents: Record<string, FileContent> = {}
  let budget = MAX_EXPORT_FILES_TOTAL_BYTES
  const add = (version: FileVersion | null) => {
    if (!version || Object.hasOwn(contents, version.hash)) return
    const content = readContent(journal, version, budget)
    if (content.encoding !== 'omitted') budget -= version.size
    contents[version.hash] = content
  }
  for (const change of changes) {
    add(change.before)
    add(change.after)
  }
  return contents
}

function readContent(journal: FileJournal, version: FileVersion, budget: number): FileContent {
  const omitted = (reason: string): FileContent => ({ encoding: 'omitted', size: version.size, reason })
  if (version.size > MAX_EXPORT_FILE_BYTES) return omitted(`larger than the ${MAX_EXPORT_FILE_BYTES / 1024 / 1024} MiB an export carries per file`)
  if (version.size > budget) return omitted(`the export already carries ${MAX_EXPORT_FILES_TOTAL_BYTES / 1024 / 1024} MiB of files`)
  let bytes: Buffer
  try {
    bytes = journal.blobs.read(version.hash)
  } catch (error) {
    return omitted(`the snapshot is not available in the store (${(error as Error).message})`)
  }
  return isText(bytes) ? { encoding: 'utf8', text: bytes.toString('utf8') } : { encoding: 'base64', base64: bytes.toString('base64') }
}
