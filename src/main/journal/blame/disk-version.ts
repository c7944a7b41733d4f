import { lstatSync, readFileSync, readlinkSync } from 'node:fs'
import { sha256 } from '../blob-store'
import { MAX_DIFF_BYTES } from '../file-diff'
import { WorkspaceFs } from '../workspace-fs'
import type { RelPath } from '../../fs/paths'

/** What is at a workspace path now, as blame needs it: content (unless too large), or why there is none. */
export type DiskContent =
  | { state: 'file' | 'symlink'; hash: string; size: number; content: Buffer | null }
  | { state: 'absent' }
  | { state: 'unreadable'; reason: string }

/**
 * Read one workspace file for blame, without following a link on the way (a parent folder that
 * is a link is refused, as the rewind does). Only read: nothing here writes.
 */
export function readDiskVersion(root: string, path: RelPath): DiskContent {
  let absolute: Buffer
  try {
    absolute = new WorkspaceFs(root).resolve(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { state: 'absent' } // the workspace folder is gone
    return { state: 'unreadable', reason: (error as Error).message }
  }
  try {
    const stats = lstatSync(absolute)
    if (stats.isSymbolicLink()) {
      const target = readlinkSync(absolute, { encoding: 'buffer' })
      return { state: 'symlink', hash: sha256(target), size: target.length, content: target }
    }
    if (!stats.isFile()) return { state: 'absent' }
    if (stats.size > MAX_DIFF_BYTES) return { state: 'file', hash: '', size: stats.size, content: null }
    const content = readFileSync(absolute)
    return { state: 'file', hash: sha256(content), size: content.length, content }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' }
    return { state: 'unreadable', reason: (error as Error).message }
  }
}
