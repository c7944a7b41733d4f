import { createHash } from 'node:crypto'
import { lstat, readFile, readlink } from 'node:fs/promises'
import { RetraceError } from '../../../shared/contract'
import { displayPath, keyOf, type RelPath } from '../../fs/paths'
import type { BlobStore } from '../blob-store'
import { diffContents, MAX_DIFF_BYTES, tooLargeDiff, type DiffSide, type FileDiff } from '../file-diff'
import type { FileVersion } from '../../store/repositories/journal'
import type { WorkspaceFs } from '../workspace-fs'
import type { PathTarget } from './path-target'

/**
 * Which diff a preview row shows: `rewind`, the disk now against what the rewind writes;
 * `yours`, what the agent left against the disk now (a conflict: the change someone made since).
 */
export type PreviewDiffSide = 'rewind' | 'yours'

/** The target of one path among a rewind's targets, or NOT_FOUND when the rewind does not cover it. */
export function targetOfPath(targets: readonly PathTarget[], path: RelPath): PathTarget {
  const key = keyOf(path)
  const found = targets.find((target) => keyOf(target.path) === key)
  if (!found) throw new RetraceError('NOT_FOUND', `This rewind does not cover ${displayPath(path)}.`)
  return found
}

/** What is at `path` on the disk now, read for a diff (only read: nothing is written or followed). */
type DiskRead = DiffSide | null | { tooLarge: true; hash: string; size: number }

async function readDisk(fs: WorkspaceFs, path: RelPath): Promise<DiskRead> {
  const absolute = fs.resolve(path) // refuses a path under a linked folder, as the rewind does
  let stats
  try {
    stats = await lstat(absolute)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  if (stats.isSymbolicLink()) return side('symlink', await readlink(absolute, { encoding: 'buffer' }))
  if (!stats.isFile()) throw new RetraceError('VALIDATION', `${displayPath(path)} is now a ${stats.isDirectory() ? 'folder' : 'special file'}: there is no content to compare.`)
  if (stats.size > MAX_DIFF_BYTES) {
    const state = await fs.state(path)
    return { tooLarge: true, hash: state && 'hash' in state ? state.hash : '', size: stats.size }
  }
  return side('file', await readFile(absolute))
}

const side = (kind: FileVersion['kind'], content: Buffer): DiffSide => ({ kind, content, size: content.length, hash: createHash('sha256').update(content).digest('hex') })

function savedSide(blobs: BlobStore, version: FileVersion | null): DiffSide | null | { tooLarge: true; hash: string; size: number } {
  if (!version) return null
  if (version.size > MAX_DIFF_BYTES) return { tooLarge: true, hash: version.hash, size: version.size }
  return { kind: version.kind, hash: version.hash, size: version.size, content: blobs.read(version.hash) }
}

/**
 * The line diff one row of a rewind preview opens. Reads the disk and the store, writes nothing:
 * `rewind` diffs the disk now (before) with the version the rewind writes (after), `yours`
 * diffs what the agent left (before) with the disk now (after).
 */
export async function previewDiff(fs: WorkspaceFs, blobs: BlobStore, target: PathTarget, which: PreviewDiffSide): Promise<FileDiff> {
  const disk = await readDisk(fs, target.path)
  const saved = savedSide(blobs, which === 'rewind' ? target.target : target.expected)
  const [before, after] = which === 'rewind' ? [disk, saved] : [saved, disk]
  if ((before && 'tooLarge' in before) || (after && 'tooLarge' in after)) return tooLargeDiff(before, after)
  return diffContents(before, after)
}
