import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { dirSize, type DirSize } from './disk'
import type { RetraceSide } from './retrace-side'
import { gitGc, type ShadowGit } from './shadow-git'
import { databaseOf } from '../../src/main/store/raw-database'

export interface StorageSizes {
  /** Retrace's whole data folder after a WAL checkpoint: database, blobs/ (and its empty tmp/). */
  retrace: DirSize
  retraceBlobFiles: DirSize
  /** The shadow .git as git leaves it after `add -A` + `commit`: loose objects. */
  gitLoose: DirSize
  /** The same repository after `git gc` (on a copy, so the measured repository stays as a peer leaves it). */
  gitPacked: DirSize
  gcMs: number
}

export function measureStorage(retrace: RetraceSide, git: ShadowGit, scratch: string): StorageSizes {
  retrace.checkpointWal()
  const copy = join(scratch, 'shadow-gc-copy.git')
  const copied = spawnSync('cp', ['-a', git.gitDir, copy])
  if (copied.status !== 0) throw new Error(`copying the shadow repository failed: ${copied.stderr.toString()}`)
  try {
    const gcMs = gitGc(copy)
    return { retrace: dirSize(retrace.dataDir), retraceBlobFiles: dirSize(join(retrace.dataDir, 'blobs')), gitLoose: dirSize(git.gitDir), gitPacked: dirSize(copy), gcMs }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

export interface InlineEstimate {
  blobs: number
  rawBytes: number
  /** The same contents gzipped at level 1 (what Retrace does above 256 KB, and git's loose-object default)… */
  level1Bytes: number
  level1Ms: number
  /** …and at zlib's default level 6 (git's default for packs). */
  level6Bytes: number
  level6Ms: number
}

/**
 * A diagnosis, not a measure of the issue: blobs up to 256 KB are stored in SQLite as they are,
 * uncompressed. How much smaller would they be compressed, and at what CPU cost?
 */
export function estimateInlineCompression(retrace: RetraceSide): InlineEstimate {
  const rows = databaseOf(retrace.runtime.store).prepare("SELECT data FROM blobs WHERE storage = 'inline'").pluck().iterate() as IterableIterator<Buffer>
  const estimate: InlineEstimate = { blobs: 0, rawBytes: 0, level1Bytes: 0, level1Ms: 0, level6Bytes: 0, level6Ms: 0 }
  for (const data of rows) {
    let started = performance.now()
    estimate.level1Bytes += gzipSync(data, { level: 1 }).length
    estimate.level1Ms += performance.now() - started
    started = performance.now()
    estimate.level6Bytes += gzipSync(data, { level: 6 }).length
    estimate.level6Ms += performance.now() - started
    estimate.rawBytes += data.length
    estimate.blobs++
  }
  return estimate
}
