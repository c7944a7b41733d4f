import { diffThreads, type DiffThreads } from './line-diff/diff-thread'
import type { BlobStore } from './blob-store'
import type { FileVersion } from '../store/repositories/journal'

/** Beyond this, a text diff is not computed: the size and hash say what changed. */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024

export interface FileDiff {
  binary: boolean
  tooLarge: boolean
  /**
   * Past the line diff's bounds (line-diff/bounds.mts): `added` and `removed` are 0 (not known)
   * and `patch` is the two versions side by side (one hunk replacing every line).
   */
  tooManyChanges: boolean
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

/** Diff two versions of one file (null = absent), bounded in size, edits and time, off the request thread. */
export function diffVersions(blobs: BlobStore, before: FileVersion | null, after: FileVersion | null, threads: DiffThreads = diffThreads): Promise<FileDiff> {
  if ((before?.size ?? 0) > MAX_DIFF_BYTES || (after?.size ?? 0) > MAX_DIFF_BYTES) return Promise.resolve(tooLargeDiff(before, after))
  const side = (version: FileVersion | null): DiffSide | null => (version ? { ...version, content: blobs.read(version.hash) } : null)
  return diffContents(side(before), side(after), threads)
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
  return { binary: false, tooLarge: true, tooManyChanges: false, before: meta(before), after: meta(after), added: 0, removed: 0, patch: '' }
}

/**
 * Diff two contents of one file (null = absent) by lines, on a diff thread (R27): a binary side
 * says so, a link shows `link: old → new`. A created file's hunk starts at `-0,0`, a deleted
 * one's at `+0,0`. Past the bounds, `tooManyChanges` and the two versions side by side.
 */
export async function diffContents(before: DiffSide | null, after: DiffSide | null, threads: DiffThreads = diffThreads, options: { countsOnly?: boolean } = {}): Promise<FileDiff> {
  const result: FileDiff = { binary: false, tooLarge: false, tooManyChanges: false, before: meta(before), after: meta(after), added: 0, removed: 0, patch: '' }
  const oldContent = before?.content ?? Buffer.alloc(0)
  const newContent = after?.content ?? Buffer.alloc(0)
  if (!isText(oldContent) || !isText(newContent) || before?.kind === 'symlink' || after?.kind === 'symlink') {
    result.binary = before?.kind !== 'symlink' && after?.kind !== 'symlink'
    if (!result.binary) result.patch = `link: ${oldContent.toString()} → ${newContent.toString()}`
    return result
  }
  const { tooManyChanges, added, removed, patch } = await threads.diff(oldContent.toString('utf8'), newContent.toString('utf8'), options)
  return { ...result, tooManyChanges, added, removed, patch }
}
