import type { Store } from '../store/store'
import type { FileVersion } from '../store/repositories/journal'
import type { StoredLineCounts } from '../store/repositories/line-counts'
import type { BlobStore } from './blob-store'
import { isText, MAX_DIFF_BYTES } from './file-diff'
import { diffThreads, type DiffThreads } from './line-diff/diff-thread'

/** A change's +N −M: null when there are none to give (binary, very large, too many changes). */
export interface LineCounts {
  added: number | null
  removed: number | null
  tooManyChanges: boolean
}

const NONE: LineCounts = { added: null, removed: null, tooManyChanges: false }

/**
 * The line counts of a change from `before` to `after` (R28): read from the store when this pair
 * of contents was diffed before, else diffed once on a diff thread (counts only) and kept. What
 * is known without reading a byte (a link, a side over the size limit) is neither diffed nor kept.
 * Throws when a snapshot cannot be read.
 */
export async function lineCountsOf(store: Store, blobs: BlobStore, before: FileVersion | null, after: FileVersion | null, threads: DiffThreads = diffThreads): Promise<LineCounts> {
  // A link's change is its target, shown as `link: old → new`: no lines added or removed.
  if (before?.kind === 'symlink' || after?.kind === 'symlink') return { added: 0, removed: 0, tooManyChanges: false }
  if ((before?.size ?? 0) > MAX_DIFF_BYTES || (after?.size ?? 0) > MAX_DIFF_BYTES) return NONE
  const stored = store.lineCounts.get(before?.hash ?? null, after?.hash ?? null)
  if (stored) return fromStored(stored)
  const oldContent = before ? blobs.read(before.hash) : Buffer.alloc(0)
  const newContent = after ? blobs.read(after.hash) : Buffer.alloc(0)
  let counts: StoredLineCounts
  if (!isText(oldContent) || !isText(newContent)) counts = { outcome: 'binary', added: 0, removed: 0 }
  else {
    const diff = await threads.diff(oldContent.toString('utf8'), newContent.toString('utf8'), { countsOnly: true })
    counts = diff.tooManyChanges ? { outcome: 'too-many-changes', added: 0, removed: 0 } : { outcome: 'text', added: diff.added, removed: diff.removed }
    // Stopped by the clock, the machine may only have been busy: not kept, tried again next time.
    if (diff.stoppedBy === 'time') return fromStored(counts)
  }
  store.lineCounts.put(before?.hash ?? null, after?.hash ?? null, counts)
  return fromStored(counts)
}

function fromStored(counts: StoredLineCounts): LineCounts {
  if (counts.outcome === 'text') return { added: counts.added, removed: counts.removed, tooManyChanges: false }
  return { ...NONE, tooManyChanges: counts.outcome === 'too-many-changes' }
}
