import { createHash } from 'node:crypto'
import { closeSync, constants, fchmodSync, linkSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'
import type { ExpectedFile, StoredContent } from '../blob-writer-protocol.ts'
import { Failure } from './failure.mts'

// A fresh file only: never one that exists, never through a link planted at the name.
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)
const HASH_CHUNK = 1024 * 1024

export const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex')

/** The blob's content, decoded and checked against its hash. */
export function decodeVerified(stored: StoredContent): Buffer {
  const data = toBuffer(stored.data)
  let content: Buffer
  try {
    content = stored.encoding === 'deflate' ? inflateRawSync(data, stored.dictionary ? { dictionary: stored.dictionary } : undefined) : data
  } catch (error) {
    throw new Failure('corrupt', `its stored data cannot be decoded (${(error as Error).message})`)
  }
  if (sha256(content) !== stored.hash) throw new Failure('corrupt', 'its content does not match its hash (corrupt)')
  return content
}

/** Create `target` (which must not exist) holding `content` with exactly `mode`; on failure nothing is left there. */
export function createFile(target: Buffer, content: Buffer, mode: number): void {
  const fd = openSync(target, CREATE_FLAGS, mode)
  try {
    for (let offset = 0; offset < content.length; ) offset += writeSync(fd, content, offset)
    fchmodSync(fd, mode) // exactly: open's mode is filtered by the umask
  } catch (error) {
    closeSync(fd)
    removeQuietly(target) // e.g. ENOSPC: no partial file is left behind
    throw error
  }
  try {
    closeSync(fd)
  } catch (error) {
    removeQuietly(target)
    throw error
  }
}

export function removeQuietly(path: Buffer): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone; the caller removes its temp files on failure anyway.
  }
}

/** Refuses unless `target` holds `expected` (null: nothing), as rewind/steps.ts checkBefore does. */
export function checkTarget(target: Buffer, expected: ExpectedFile | null): void {
  const changed = () => new Failure('changed', 'it changed while the rewind was running (is an agent still writing?)')
  let stats
  try {
    stats = lstatSync(target, { bigint: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
    if (expected === null) return
    throw changed()
  }
  if (expected === null) throw changed()
  const stamp = expected.stamp
  if (stamp && stats.ctimeNs === stamp.ctimeNs && stats.mtimeNs === stamp.mtimeNs && stats.size === stamp.size && stats.ino === stamp.ino && stats.dev === stamp.dev && stats.mode === stamp.mode) return
  if (!stats.isFile() || Number(stats.mode & 0o777n) !== (expected.mode & 0o777) || hashFile(target) !== expected.hash) throw changed()
}

/** True if `target`'s lstat matches the plan's whole stamp (ctime included), which proves its content unread. */
export function stampHolds(target: Buffer, expected: ExpectedFile): boolean {
  const stamp = expected.stamp
  if (!stamp) return false
  const stats = lstatSync(target, { bigint: true, throwIfNoEntry: false })
  return stats !== undefined && stats.ctimeNs === stamp.ctimeNs && stats.mtimeNs === stamp.mtimeNs && stats.size === stamp.size && stats.ino === stamp.ino && stats.dev === stamp.dev && stats.mode === stamp.mode
}

/**
 * True if the file moved to `aside` is still `expected` (rewind/replace-file.ts holds): an
 * unchanged inode, size, mode and mtime against the plan's stamp (a rename sets the ctime, so
 * it is left out), else the same mode and hash.
 */
export function holdsExpected(aside: Buffer, expected: ExpectedFile): boolean {
  const stats = lstatSync(aside, { bigint: true, throwIfNoEntry: false })
  if (!stats) return false
  const stamp = expected.stamp
  if (stamp && stats.dev === stamp.dev && stats.ino === stamp.ino && stats.size === stamp.size && stats.mtimeNs === stamp.mtimeNs && stats.mode === stamp.mode) return true
  return stats.isFile() && Number(stats.mode & 0o777n) === (expected.mode & 0o777) && hashFile(aside) === expected.hash
}

/** Codes of `link` on file systems without hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS'])

/**
 * Make `from` a second name `to`, only if nothing is at `to` (rewind/replace-file.ts
 * placeNoReplace): false if something is. Where the file system has no hard links it looks,
 * then renames (`from` is then gone already).
 */
export function linkNoReplace(from: Buffer, to: Buffer): boolean {
  try {
    linkSync(from, to)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    if (code === 'EEXIST') return false
    if (!NO_HARD_LINKS.has(code)) throw error
  }
  if (lstatSync(to, { throwIfNoEntry: false })) return false
  renameSync(from, to)
  return true
}

/** Put a file moved aside back at `target` if nothing took its place (else it stays aside: the main thread keeps it). */
export function putBack(aside: Buffer, target: Buffer): void {
  try {
    if (linkNoReplace(aside, target)) removeQuietly(aside)
  } catch {
    // Left aside: the rewind keeps it, visible, when it settles (rewind/asides.ts).
  }
}

function hashFile(path: Buffer): string {
  const hasher = createHash('sha256')
  const fd = openSync(path, READ_FLAGS)
  try {
    const chunk = Buffer.allocUnsafe(HASH_CHUNK)
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hasher.update(chunk.subarray(0, read))
  } finally {
    closeSync(fd)
  }
  return hasher.digest('hex')
}
