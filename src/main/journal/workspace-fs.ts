import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, createReadStream, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { RetraceError } from '../../shared/contract'
import type { BlobStore } from './blob-store'
import type { FileVersion } from './journal-repository'
import { checkRelPath, displayPath, splitSegments, type RelPath } from './paths'

/** What is at a path right now. */
export type DiskState = FileVersion | null | { kind: 'directory' } | { kind: 'other' }

/**
 * The file-system calls a rewind makes, behind one seam: production passes the real ones,
 * fault tests wrap them to fail at the Nth call (EIO, EACCES, ENOSPC…).
 */
export interface FsOps {
  mkdir: (path: Buffer) => Promise<void>
  rename: (from: Buffer, to: Buffer) => Promise<void>
  unlink: (path: Buffer) => Promise<void>
  rmdir: (path: Buffer) => Promise<void>
  symlink: (target: Buffer, path: Buffer) => Promise<void>
  chmod: (path: Buffer, mode: number) => Promise<void>
  /** Materialize a blob into a new file (verified against its hash, fsynced). */
  writeBlob: (blobs: BlobStore, hash: string, path: Buffer, mode: number) => Promise<void>
}

/**
 * The real calls, made synchronously: each is one quick syscall, and a rewind runs them one
 * after another anyway, so a thread-pool round trip per call only added latency (measured
 * ~25% of a 1,000-file rewind). The promise shape is kept for the fault-injecting wrappers.
 */
export const realFsOps: FsOps = {
  mkdir: (path) => settle(() => void mkdirSync(path, { recursive: true })),
  rename: (from, to) => settle(() => renameSync(from, to)),
  unlink: (path) => settle(() => unlinkSync(path)),
  rmdir: (path) => settle(() => rmdirSync(path)),
  symlink: (target, path) => settle(() => symlinkSync(target, path)),
  chmod: (path, mode) => settle(() => chmodSync(path, mode)),
  writeBlob: (blobs, hash, path, mode) => blobs.writeTo(hash, path, mode)
}

function settle(call: () => void): Promise<void> {
  try {
    call()
    return Promise.resolve()
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)))
  }
}

/**
 * A workspace root and the rules for touching anything under it: every relative path is
 * checked (checkRelPath), joined to the real root, and refused if any folder on the way is a
 * symlink — so no read, write or delete can go through a link to somewhere else.
 */
export class WorkspaceFs {
  readonly root: Buffer

  constructor(root: string) {
    this.root = Buffer.from(realpathSync(root))
  }

  /** The absolute path for `rel`, after proving no parent folder is a link. */
  resolve(rel: Buffer): Buffer {
    const path = checkRelPath(rel)
    const segments = splitSegments(path)
    let current = this.root
    for (const segment of segments.slice(0, -1)) {
      current = Buffer.concat([current, Buffer.from('/'), segment])
      let stats
      try {
        stats = lstatSync(current)
      } catch {
        break // a missing folder is created later, inside the workspace
      }
      if (stats.isSymbolicLink()) {
        throw new RetraceError('VALIDATION', `Refused ${displayPath(path)}: the folder ${displayPath(current.subarray(this.root.length + 1))} is a symbolic link, and Retrace never writes through links.`)
      }
      if (!stats.isDirectory()) break
    }
    return Buffer.concat([this.root, Buffer.from('/'), path])
  }

  /** The state at `rel`: a file or link version (hashed), nothing, a directory, or something else. */
  async state(rel: RelPath): Promise<DiskState> {
    const absolute = this.resolve(rel)
    let stats
    try {
      stats = lstatSync(absolute)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null
      throw error
    }
    const mode = stats.mode & 0o7777
    if (stats.isSymbolicLink()) {
      const target = readlinkSync(absolute, { encoding: 'buffer' })
      return { kind: 'symlink', hash: createHash('sha256').update(target).digest('hex'), size: target.length, mode }
    }
    if (stats.isDirectory()) return { kind: 'directory' }
    if (!stats.isFile()) return { kind: 'other' }
    return { kind: 'file', hash: await hashFile(absolute, stats.size), size: stats.size, mode }
  }

  /** A temp name beside `absolute`, so the final rename stays on one file system (atomic). */
  tempBeside(absolute: Buffer): Buffer {
    const slash = absolute.lastIndexOf(0x2f)
    return Buffer.concat([absolute.subarray(0, slash + 1), Buffer.from(`.retrace-tmp-${randomBytes(6).toString('hex')}`)])
  }
}

export const TEMP_PREFIX = '.retrace-tmp-'

/** Small files are hashed from one read (a stream costs more than the hashing); large ones streamed. */
const STREAM_HASH_BYTES = 1024 * 1024

async function hashFile(path: Buffer, size: number): Promise<string> {
  if (size <= STREAM_HASH_BYTES) return createHash('sha256').update(readFileSync(path)).digest('hex')
  const hasher = createHash('sha256')
  await pipeline(createReadStream(path), hasher)
  return hasher.digest('hex')
}

/** Same content and kind (and mode, when both sides know it). */
export function sameVersion(a: DiskState, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b
  if (a.kind !== b.kind) return false
  const version = a
  return version.hash === b.hash && (version.kind === 'symlink' || (version.mode & 0o777) === (b.mode & 0o777))
}

export function sameContent(a: DiskState, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b
  return a.kind === b.kind && (a).hash === b.hash
}
