import { diffLines, structuredPatch } from 'diff'
import type { BlobStore } from './blob-store'
import type { FileVersion } from '../store/repositories/journal'

/** Beyond this, a text diff is not computed: the size and hash say what changed. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024

export interface FileDiff {
  binary: boolean
  tooLarge: boolean
  before: { hash: string; size: number } | null
  after: { hash: string; size: number } | null
  added: number
  removed: number
  /** Unified diff (no file headers); empty for binary or too-large files. */
  patch: string
}

/** Text if it has no NUL byte in its first 8 KiB and decodes as UTF-8 without loss. */
export function isText(content: Buffer): boolean {
  if (content.subarray(0, 8192).includes(0)) return false
  return Buffer.from(content.toString('utf8'), 'utf8').equals(content)
}

/** Diff two versions of one file (null = absent), with a real diff library and a size guard. */
export function diffVersions(blobs: BlobStore, name: string, before: FileVersion | null, after: FileVersion | null): FileDiff {
  const meta = (v: FileVersion | null) => (v ? { hash: v.hash, size: v.size } : null)
  const result: FileDiff = { binary: false, tooLarge: false, before: meta(before), after: meta(after), added: 0, removed: 0, patch: '' }
  if ((before?.size ?? 0) > MAX_DIFF_BYTES || (after?.size ?? 0) > MAX_DIFF_BYTES) {
    result.tooLarge = true
    return result
  }
  const oldContent = before ? blobs.read(before.hash) : Buffer.alloc(0)
  const newContent = after ? blobs.read(after.hash) : Buffer.alloc(0)
  if (!isText(oldContent) || !isText(newContent) || before?.kind === 'symlink' || after?.kind === 'symlink') {
    result.binary = before?.kind !== 'symlink' && after?.kind !== 'symlink'
    if (!result.binary) result.patch = `link: ${oldContent.toString()} → ${newContent.toString()}`
    return result
  }
  const oldText = oldContent.toString('utf8')
  const newText = newContent.toString('utf8')
  for (const part of diffLines(oldText, newText)) {
    if (part.added) result.added += part.count
    if (part.removed) result.removed += part.count
  }
  const patch = structuredPatch(name, name, oldText, newText, '', '', { context: 3 })
  result.patch = patch.hunks
    .map((hunk) => [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'))
    .join('\n')
  return result
}
