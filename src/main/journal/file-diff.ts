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
  if ((before?.size ?? 0) > MAX_DIFF_BYTES || (after?.size ?? 0) > MAX_DIFF_BYTES) return tooLargeDiff(before, after)
  const side = (version: FileVersion | null): DiffSide | null => (version ? { ...version, content: blobs.read(version.hash) } : null)
  return diffContents(name, side(before), side(after))
}

/** One side of a diff: a version's hash, size and kind, and its content. */
export interface DiffSide {
  kind: FileVersion['kind']
  hash: string
  size: number
  content: Buffer
}

const meta = (version: { hash: string; size: number } | null) => (version ? { hash: version.hash, size: version.size } : null)

/** The diff of two versions too large to compare: sizes and hashes only. */
export function tooLargeDiff(before: { hash: string; size: number } | null, after: { hash: string; size: number } | null): FileDiff {
  return { binary: false, tooLarge: true, before: meta(before), after: meta(after), added: 0, removed: 0, patch: '' }
}

/**
 * Diff two contents of one file (null = absent) by lines: a binary side says so, a link shows
 * `link: old → new`. A created file's hunk starts at `-0,0`, a deleted one's at `+0,0`.
 */
export function diffContents(name: string, before: DiffSide | null, after: DiffSide | null): FileDiff {
  const result: FileDiff = { binary: false, tooLarge: false, before: meta(before), after: meta(after), added: 0, removed: 0, patch: '' }
  const oldContent = before?.content ?? Buffer.alloc(0)
  const newContent = after?.content ?? Buffer.alloc(0)
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
    .map((hunk) => [`@@ -${hunk.oldLines === 0 ? 0 : hunk.oldStart},${hunk.oldLines} +${hunk.newLines === 0 ? 0 : hunk.newStart},${hunk.newLines} @@`, ...hunk.lines].join('\n'))
    .join('\n')
  return result
}
