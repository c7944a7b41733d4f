import { lstatSync } from 'node:fs'
import type { RelPath } from '../../fs/paths'
import type { FsOps, WorkspaceFs } from '../workspace-fs'

/**
 * Folders a rewind may remove. The journal records files, not folders, so whether a folder
 * existed at a checkpoint is read from the folder itself: its birth time (statx on Linux,
 * APFS, NTFS). A folder born after `sinceMs` did not exist then, and goes once empty (the
 * folder an agent made for a file it created, a folder a rolled-back rewind made); any other
 * folder — older, or on a file system that keeps no birth time — is left exactly as it is.
 */
export async function removeEmptyFoldersBornAfter(fs: WorkspaceFs, ops: FsOps, paths: Iterable<RelPath>, sinceMs: number): Promise<void> {
  const folders = new Map<string, RelPath>()
  for (const path of paths) {
    for (let end = path.lastIndexOf(0x2f); end > 0; end = path.lastIndexOf(0x2f, end - 1)) {
      const folder = path.subarray(0, end) as RelPath
      folders.set(folder.toString('latin1'), folder)
    }
  }
  // Deepest first: a parent can only go once its children have.
  const deepestFirst = [...folders.values()].sort((a, b) => b.length - a.length)
  for (const folder of deepestFirst) await removeIfEmptyAndBornAfter(fs, ops, folder, sinceMs)
}

async function removeIfEmptyAndBornAfter(fs: WorkspaceFs, ops: FsOps, folder: RelPath, sinceMs: number): Promise<void> {
  let absolute: Buffer
  try {
    absolute = fs.resolve(folder)
  } catch {
    return // a link on the way: never touched
  }
  if (!bornAfter(absolute, sinceMs)) return
  await ops.rmdir(absolute).catch(() => undefined) // not empty (or already gone): left as it is
}

/** A real folder whose birth time is known and later than `sinceMs`. */
export function bornAfter(absolute: Buffer, sinceMs: number): boolean {
  let stats
  try {
    stats = lstatSync(absolute, { bigint: true })
  } catch {
    return false
  }
  if (!stats.isDirectory() || stats.birthtimeNs === 0n) return false // no birth time on this file system
  return stats.birthtimeNs > BigInt(Math.floor(sinceMs) - COARSE_CLOCK_MS) * 1_000_000n
}

/**
 * File times come from the kernel's coarse clock, up to one tick (1-10 ms) behind the clock
 * Date.now() reads: a folder made just after `sinceMs` may carry a birth time just before it.
 */
const COARSE_CLOCK_MS = 20
