import { createHash, randomBytes } from 'node:crypto'
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, rmSync, type BigIntStats } from 'node:fs'
import { join } from 'node:path'
import { COARSE_RACY_WINDOW_MS, NS_PER_MS, NS_PER_S } from '../../shared-constants.mts'
import type { WireFile } from '../protocol.ts'
import { readLarge } from './large-file.mts'
import { Cancelled, Fault } from './scan-errors.mts'
import type { ScanScope } from './scan-scope.mts'

const READ_ATTEMPTS = 3
// O_NOFOLLOW: a file swapped for a link after lstat is not followed. O_NONBLOCK: one swapped for a FIFO does not hang us.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

const sameStat = (a: BigIntStats, b: BigIntStats): boolean =>
  a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode

/**
 * A file whose ctime is within one timestamp tick of the moment we read it can be written again
 * without its stat changing (git's "racily clean" problem): the next scan must re-read it.
 * ctime alone decides: every write sets it to the current (coarse) time and nobody can set it
 * back, unlike mtime. Whole-second timestamps suggest a file system with 1-2 s resolution.
 */
function isRacy(scope: ScanScope, st: BigIntStats, startedMs: number): boolean {
  const coarse = st.mtimeNs % NS_PER_S === 0n && st.ctimeNs % NS_PER_S === 0n
  const windowMs = coarse ? Math.max(COARSE_RACY_WINDOW_MS, scope.input.racyWindowMs) : scope.input.racyWindowMs
  return st.ctimeNs >= BigInt(startedMs - windowMs) * NS_PER_MS
}

async function readInline(scope: ScanScope, fd: number, size: number): Promise<{ length: number; hash: string }> {
  const view = await scope.batches.room(size)
  let length = 0
  for (let n = -1; length < size && n !== 0; length += n) n = readSync(fd, view, length, size - length, length)
  scope.counts.bytesHashed += length
  return { length, hash: createHash('sha256').update(view.subarray(0, length)).digest('hex') }
}

/**
 * Read and hash a regular file: inline (into the batch buffer, deflated there) or, if large,
 * gzipped to a temp file. Its stat is taken on the open descriptor before and after the read; if
 * it changed meanwhile the read is retried, and the last attempt is kept but marked racy so the
 * next scan reads it again.
 */
export async function readFile(scope: ScanScope, rel: Buffer, key: string): Promise<WireFile | null> {
  const { input, batches } = scope
  for (let attempt = 1; ; attempt++) {
    const fd = scope.guarded(key, false, () => openSync(scope.abs(rel), OPEN_FLAGS))
    if (fd === null) return null
    let temp: string | null = null
    try {
      const before = fstatSync(fd, { bigint: true })
      const size = Number(before.size)
      const refusal = !before.isFile() ? 'it changed type while being scanned' : size > input.maxFileBytes ? scope.tooLarge(size) : null
      if (refusal) {
        scope.skip(key, refusal)
        return null
      }
      const startedMs = Date.now()
      const inline = size <= input.inlineMaxBytes
      if (!inline) temp = join(input.tempDir, `${process.pid}-scan-${randomBytes(8).toString('hex')}.tmp`) // <pid>-: see process-owner.ts
      const { length, hash } = temp ? await readLarge(scope, fd, temp) : await readInline(scope, fd, size)
      const stable = length === size && sameStat(before, fstatSync(fd, { bigint: true }))
      if (!stable && attempt < READ_ATTEMPTS) continue
      if (!temp) scope.dictionary.sample(batches.buffer, batches.used, length)
      const file: WireFile = { key, kind: 'file', size: length, mode: Number(before.mode & 0o7777n), hash, mtimeNs: before.mtimeNs, ctimeNs: before.ctimeNs, ino: before.ino, source: temp ? 'temp' : 'inline', offset: batches.used, packed: null, temp, racy: !stable || isRacy(scope, before, startedMs) }
      if (!temp) batches.used += scope.packer.pack(file, batches.buffer, scope.dictionary.current, input)
      temp = null // handed over with the file
      return file
    } catch (error) {
      if (error instanceof Cancelled) throw error
      throw new Fault(key, error)
    } finally {
      closeSync(fd)
      if (temp) rmSync(temp, { force: true })
      scope.openTemp = null
    }
  }
}

/** A link is recorded as its target bytes, never followed. */
export async function readLink(scope: ScanScope, rel: Buffer, key: string, st: BigIntStats): Promise<WireFile | null> {
  const startedMs = Date.now()
  const target = scope.guarded(key, false, () => readlinkSync(scope.abs(rel), { encoding: 'buffer' }))
  if (target === null) return null
  const after = scope.guarded(key, false, () => lstatSync(scope.abs(rel), { bigint: true }))
  if (after === null) return null
  ;(await scope.batches.room(target.length)).set(target)
  scope.counts.bytesHashed += target.length
  const hash = createHash('sha256').update(target).digest('hex')
  const file: WireFile = { key, kind: 'symlink', size: target.length, mode: Number(st.mode & 0o7777n), hash, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, source: 'inline', offset: scope.batches.used, packed: null, temp: null, racy: !sameStat(st, after) || isRacy(scope, st, startedMs) }
  scope.batches.used += target.length
  return file
}
