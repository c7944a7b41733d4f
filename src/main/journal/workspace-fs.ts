import { createHash, randomFillSync } from 'node:crypto'
import { chmodSync, createReadStream, linkSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmdirSync, symlinkSync, unlinkSync, type BigIntStats } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { RetraceError } from '../../shared/contract'
import type { BlobStore, WriteOptions } from './blob-store'
import { blobWriters } from './blob-writers'
import { syncFileSystem } from './file-system-sync'
import type { DiskState, FileVersion } from '../store/repositories/journal'
import { checkRelPath, displayPath, splitSegments, type RelPath } from '../fs/paths'
import type { ScannedFile } from './scan/types'
import { COARSE_RACY_WINDOW_MS, NS_PER_MS, NS_PER_S, RACY_WINDOW_MS, TEMP_PREFIX } from './shared-constants.mts'

/**
 * The lstat fields that move whenever a path's content, type, permissions or identity do:
 * every write sets ctime (and mtime) to the current time, and no process can set ctime back,
 * so while all of these match, the inode at the path holds the bytes it held when they were taken.
 */
export interface StatStamp {
  dev: bigint
  ino: bigint
  mode: bigint
  size: bigint
  mtimeNs: bigint
  ctimeNs: bigint
}

/** A state read from disk, with the stamp that proves it still holds (null: prove it by reading again). */
export interface StampedState {
  state: DiskState
  stamp: StatStamp | null
}

/**
 * The file-system calls a rewind makes, behind one seam: production passes the real ones,
 * fault tests wrap them to fail at the Nth call (EIO, EACCES, ENOSPC…).
 */
export interface FsOps {
  mkdir: (path: Buffer) => Promise<void>
  rename: (from: Buffer, to: Buffer) => Promise<void>
  /** A second name for a file: fails (EEXIST) if something is at `to`, so it never replaces anything. */
  link: (existing: Buffer, to: Buffer) => Promise<void>
  unlink: (path: Buffer) => Promise<void>
  rmdir: (path: Buffer) => Promise<void>
  symlink: (target: Buffer, path: Buffer) => Promise<void>
  chmod: (path: Buffer, mode: number) => Promise<void>
  /** Materialize a blob into a new file (verified against its hash; fsynced unless `options.durable` is false). */
  writeBlob: (blobs: BlobStore, hash: string, path: Buffer, mode: number, options?: WriteOptions) => Promise<void>
  /** Make everything written on the file system holding `path` durable (one syncfs; see file-system-sync.ts). */
  syncFileSystem: (path: Buffer) => Promise<void>
}

/**
 * The real calls, made synchronously: each is one quick syscall, and a rewind runs them one
 * after another anyway, so a thread-pool round trip per call only added latency (a sizeable
 * share of a large rewind). The promise shape is kept for the fault-injecting wrappers.
 * (Writing a blob and flushing the file system are the exceptions: they wait for the disk.)
 */
export const realFsOps: FsOps = {
  mkdir: (path) => settle(() => void mkdirSync(path, { recursive: true })),
  rename: (from, to) => settle(() => renameSync(from, to)),
  link: (existing, to) => settle(() => linkSync(existing, to)),
  unlink: (path) => settle(() => unlinkSync(path)),
  rmdir: (path) => settle(() => rmdirSync(path)),
  symlink: (target, path) => settle(() => symlinkSync(target, path)),
  chmod: (path, mode) => settle(() => chmodSync(path, mode)),
  writeBlob: (blobs, hash, path, mode, options) => blobs.writeTo(hash, path, mode, options),
  syncFileSystem: (path) => syncFileSystem(path, blobWriters)
}

function settle(call: () => void): Promise<void> {
  try {
    call()
    return Promise.resolve()
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)))
  }
}

/** Which folder a workspace root is: its device and inode, as lstat of its path gives them. */
export interface RootIdentity {
  dev: bigint
  ino: bigint
}

/**
 * Thrown once the workspace root's path no longer leads to the folder the rewind began in (the
 * folder renamed away and a link or another folder put at its path, or a folder above it
 * swapped): whatever Retrace did next through that path would land in the other folder.
 */
export class RootReplaced extends Error {
  constructor(root: Buffer) {
    super(`the workspace folder ${root.toString()} was replaced while Retrace worked in it (its path now leads to another folder, or a link to one); Retrace stopped, and changes nothing through that path until the folder it began in is back there`)
  }
}

/**
 * A workspace root and the rules for touching anything under it: every relative path is
 * checked (checkRelPath), joined to the real root, and refused if any folder on the way is a
 * symlink — so no read, write or delete can go through a link to somewhere else. The root's
 * identity (device and inode) is taken once, and every path resolved for a change checks it
 * again first (checkRoot): Node has no openat, so a root swapped for a link is caught by looking
 * before each change, and callers look once more after it.
 */
export class WorkspaceFs {
  readonly root: Buffer
  readonly identity: RootIdentity

  constructor(root: string, expected?: RootIdentity) {
    this.root = Buffer.from(realpathSync(root))
    this.identity = expected ?? identityOf(this.root)
    this.checkRoot()
  }

  /**
   * A root recorded earlier (an intent log's): the path as recorded, never resolved again, and
   * refused unless it is still that folder (the identity recorded with it, when there is one).
   */
  static recorded(root: Buffer, identity?: RootIdentity): WorkspaceFs {
    const now = lstatSync(root, { bigint: true, throwIfNoEntry: false })
    if (!now?.isDirectory()) throw new RootReplaced(root)
    if (identity === undefined && realpathSync(root) !== root.toString()) throw new RootReplaced(root)
    const fs = new WorkspaceFs(root.toString(), identity ?? { dev: now.dev, ino: now.ino })
    if (!fs.root.equals(root)) throw new RootReplaced(root)
    return fs
  }

  /** Throws RootReplaced unless the root's path still leads to the folder it led to when this was made. */
  checkRoot(): void {
    if (!this.rootIsSame()) throw new RootReplaced(this.root)
  }

  rootIsSame(): boolean {
    const now = lstatSync(this.root, { bigint: true, throwIfNoEntry: false })
    return now !== undefined && now.isDirectory() && now.dev === this.identity.dev && now.ino === this.identity.ino
  }

  /**
   * The absolute path for `rel`, after proving no parent folder is a link. `checked`, shared by
   * the lookups of one pass over many files (a plan), remembers the folders proven real in it,
   * so each is looked at once per pass: a pass only reads, and whatever later writes checks the
   * folders again just before it does.
   */
  resolve(rel: Buffer, checked?: Set<string>): Buffer {
    const path = checkRelPath(rel)
    if (checked === undefined) this.checkRoot() // a pass over many files (a plan) only reads: its caller checks once
    const segments = splitSegments(path)
    let current = this.root
    for (const segment of segments.slice(0, -1)) {
      current = Buffer.concat([current, Buffer.from('/'), segment])
      const key = checked && current.toString('latin1')
      if (key !== undefined && checked?.has(key)) continue
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
      if (key !== undefined) checked?.add(key)
    }
    return Buffer.concat([this.root, Buffer.from('/'), path])
  }

  /**
   * The absolute path for `rel`, checked (checkRelPath) but without looking at the disk: for
   * callers that check the folders on the way themselves, just before they write (the rewind's
   * lanes, blob-writer-worker.mts).
   */
  join(rel: Buffer): Buffer {
    return Buffer.concat([this.root, Buffer.from('/'), checkRelPath(rel)])
  }

  /** The state at `rel`: a file or link version (hashed), nothing, a directory, or something else. */
  async state(rel: RelPath): Promise<DiskState> {
    return (await this.stampedState(rel)).state
  }

  /**
   * The state at `rel` and, when it can be trusted later, the stamp of the inode that was read:
   * taken before the read and found identical after it, and not racily recent. A rewind uses it
   * to prove, just before replacing the file, that it is still what the plan hashed.
   *
   * `scanned`, the file as the last workspace scan recorded it, saves the read when its stat
   * still matches on every field the scanner compares: the scan's hash then holds, exactly as
   * the next scan would reuse it (a racily recorded file never matches: see RACY_CTIME_NS).
   */
  async stampedState(rel: RelPath, scanned?: ScannedFile, checked?: Set<string>): Promise<StampedState> {
    const absolute = this.resolve(rel, checked)
    const startedMs = Date.now()
    const before = lstatStamp(absolute)
    if (before === null) return { state: null, stamp: null }
    const stats = before.stats
    const mode = Number(stats.mode & 0o7777n)
    if (scanned && matchesScan(stats, scanned) && !isRacy(before.stamp, startedMs)) {
      return { state: { kind: scanned.kind, hash: scanned.hash, size: scanned.size, mode }, stamp: before.stamp }
    }
    let state: DiskState
    if (stats.isSymbolicLink()) {
      const target = readlinkSync(absolute, { encoding: 'buffer' })
      state = { kind: 'symlink', hash: createHash('sha256').update(target).digest('hex'), size: target.length, mode }
    } else if (stats.isDirectory()) {
      return { state: { kind: 'directory' }, stamp: null }
    } else if (!stats.isFile()) {
      return { state: { kind: 'other' }, stamp: null }
    } else {
      state = { kind: 'file', hash: await hashFile(absolute, Number(stats.size)), size: Number(stats.size), mode }
    }
    const after = lstatStamp(absolute)
    const settled = after !== null && sameStamp(before.stamp, after.stamp) && !isRacy(before.stamp, startedMs)
    return { state, stamp: settled ? before.stamp : null }
  }

  /** A temp name beside `absolute`, so the final rename stays on one file system (atomic). */
  tempBeside(absolute: Buffer): Buffer {
    const slash = absolute.lastIndexOf(0x2f)
    return Buffer.concat([absolute.subarray(0, slash + 1), Buffer.from(`${TEMP_PREFIX}${tempNameBytes.next()}`)])
  }
}

/**
 * Random bytes for temp names, drawn a few kilobytes at a time: a large rewind names a temp per
 * file, and one call to the random source per name cost several milliseconds per thousand.
 */
class RandomPool {
  private readonly pool = Buffer.alloc(6 * 512)
  private offset = this.pool.length

  /** Six fresh random bytes, in hex. */
  next(): string {
    if (this.offset === this.pool.length) {
      randomFillSync(this.pool)
      this.offset = 0
    }
    this.offset += 6
    return this.pool.toString('hex', this.offset - 6, this.offset)
  }
}

const tempNameBytes = new RandomPool()

/** The state at an absolute path (no link followed): a file or link version (hashed), nothing, a directory, or something else. */
export async function stateAt(absolute: Buffer): Promise<DiskState> {
  const stats = lstatSync(absolute, { bigint: true, throwIfNoEntry: false })
  if (!stats) return null
  const mode = Number(stats.mode & 0o7777n)
  if (stats.isSymbolicLink()) {
    const target = readlinkSync(absolute, { encoding: 'buffer' })
    return { kind: 'symlink', hash: createHash('sha256').update(target).digest('hex'), size: target.length, mode }
  }
  if (stats.isDirectory()) return { kind: 'directory' }
  if (!stats.isFile()) return { kind: 'other' }
  return { kind: 'file', hash: await hashFile(absolute, Number(stats.size)), size: Number(stats.size), mode }
}

/** Small files are hashed from one read (a stream costs more than the hashing); large ones streamed. */
const STREAM_HASH_BYTES = 1024 * 1024

async function hashFile(path: Buffer, size: number): Promise<string> {
  if (size <= STREAM_HASH_BYTES) return createHash('sha256').update(readFileSync(path)).digest('hex')
  const hasher = createHash('sha256')
  await pipeline(createReadStream(path), hasher)
  return hasher.digest('hex')
}

/** True if `absolute` still has exactly the stamp `stamp` (so it holds what was read when it was taken). */
export function hasStamp(absolute: Buffer, stamp: StatStamp): boolean {
  const now = lstatStamp(absolute)
  return now !== null && sameStamp(now.stamp, stamp)
}

function identityOf(root: Buffer): RootIdentity {
  const stats = lstatSync(root, { bigint: true })
  return { dev: stats.dev, ino: stats.ino }
}

/** lstat with nanosecond times; null if nothing is there. */
function lstatStamp(absolute: Buffer): { stats: BigIntStats; stamp: StatStamp } | null {
  let stats: BigIntStats
  try {
    stats = lstatSync(absolute, { bigint: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null
    throw error
  }
  return { stats, stamp: { dev: stats.dev, ino: stats.ino, mode: stats.mode, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs } }
}

/** The scanner's cache test (scan/worker/previous-scan.mts `hit`): kind, size, permissions, mtime, ctime and inode. */
const matchesScan = (stats: BigIntStats, scanned: ScannedFile): boolean =>
  (stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'symlink' : null) === scanned.kind &&
  Number(stats.size) === scanned.size &&
  Number(stats.mode & 0o7777n) === scanned.mode &&
  stats.mtimeNs === scanned.mtimeNs &&
  stats.ctimeNs === scanned.ctimeNs &&
  stats.ino === scanned.ino

const sameStamp = (a: StatStamp, b: StatStamp): boolean =>
  a.ctimeNs === b.ctimeNs && a.mtimeNs === b.mtimeNs && a.size === b.size && a.ino === b.ino && a.dev === b.dev && a.mode === b.mode

/** Changed too recently before `startedMs` for its stamp to prove anything (see RACY_WINDOW_MS). */
function isRacy(stamp: StatStamp, startedMs: number): boolean {
  const coarse = stamp.mtimeNs % NS_PER_S === 0n && stamp.ctimeNs % NS_PER_S === 0n
  const windowMs = coarse ? COARSE_RACY_WINDOW_MS : RACY_WINDOW_MS
  return stamp.ctimeNs >= BigInt(startedMs - windowMs) * NS_PER_MS
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
