import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, statfsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Write back every dirty page before a timed step. Retrace fsyncs what it writes and git (by
 * default) does not, so without this the side measured second would pay, in its own time, for
 * the write-back of the side measured first.
 */
export function flushDisk(): void {
  spawnSync('sync')
}

export interface DirSize {
  /** Sum of file lengths. */
  bytes: number
  /** Blocks allocated (what `du` reports): small loose files cost a whole block each. */
  diskBytes: number
  files: number
}

export function dirSize(path: string): DirSize {
  const total: DirSize = { bytes: 0, diskBytes: 0, files: 0 }
  const stack = [path]
  for (let dir = stack.pop(); dir !== undefined; dir = stack.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name)
      const stats = lstatSync(full)
      total.diskBytes += stats.blocks * 512
      if (entry.isDirectory()) {
        stack.push(full)
      } else {
        total.bytes += stats.size
        total.files++
      }
    }
  }
  return total
}

export function hashFile(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/**
 * Refuse to start on a disk that cannot hold the run: the workspace and git's copy, two Retrace
 * stores and two shadow repositories (and a copy for gc) at about its size each, then the large
 * file, its stored blob and its restored copy.
 */
export function checkFreeSpace(dir: string, workspaceBytes: number, bigFileBytes: number): void {
  const stats = statfsSync(dir)
  const free = stats.bavail * stats.bsize
  const needed = 7 * workspaceBytes + 3 * bigFileBytes
  if (free < needed) throw new Error(`${dir} has ${(free / 1024 ** 3).toFixed(1)} GiB free; this run needs about ${(needed / 1024 ** 3).toFixed(1)} GiB (shrink it with RETRACE_BENCH_WORKSPACE_MB / RETRACE_BENCH_BIG_FILE_MB)`)
}
