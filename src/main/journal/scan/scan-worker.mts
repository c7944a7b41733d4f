/**
 * The workspace scan, in a worker thread so a 300k-file folder never blocks the UI (R20).
 * One worker runs many scans, one at a time (starting a thread costs tens of milliseconds per
 * capture): each `scan` message resets the state below, and a finished scan posts `done`.
 *
 * Self-contained on purpose: under vitest Node runs this file directly with type stripping, and
 * the build makes it its own entry. So: only node:* builtins, npm packages and `import type`;
 * only erasable TypeScript (no enums, namespaces or parameter properties).
 *
 * File-system calls are synchronous: the thread is ours, and a libuv round trip per lstat would
 * dominate a scan of small files. Cancellation is therefore polled with receiveMessageOnPort.
 */
import { createHash, randomBytes } from 'node:crypto'
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, rmSync, writeSync, type BigIntStats, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { parentPort, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { createGzip, deflateRawSync } from 'node:zlib'
import ignore from 'ignore'
import type { DeflateHelperData, DeflateReply, DeflateRequest, ParentMessage, ScanInput, WireCounts, WireFile, WireKind, WireSkip, WorkerMessage } from './protocol'

if (!parentPort) throw new Error('scan-worker.mts must run in a worker thread')
const port = parentPort

const EMPTY = Buffer.alloc(0)
const SLASH = Buffer.from('/')
const GITIGNORE = Buffer.from('.gitignore')
const BATCH_FILES = 500
/** `INLINE_DEFLATE` of blob-store.ts (not importable here): level 4 and a larger hash table. */
const INLINE_DEFLATE = { level: 4, memLevel: 9 } as const
/** Unchanged files cost four bytes each in a batch; this many of them make one. */
const BATCH_ENTRIES = 4096
const PROGRESS_MS = 100
const READ_ATTEMPTS = 3
const MAX_IN_FLIGHT = 4
const CHUNK_BYTES = 1024 * 1024
/** Content handed to the deflate helper and not yet answered, beyond which the walk deflates files itself (see DeflateHelper). */
const HELPER_BACKLOG_BYTES = 1024 * 1024
const NS_PER_MS = 1_000_000n
const NS_PER_S = 1_000_000_000n
// O_NOFOLLOW: a file swapped for a link after lstat is not followed. O_NONBLOCK: one swapped for a FIFO does not hang us.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)
// git's core.ignorecase default: true where the usual file system is case-insensitive.
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32'
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

class Cancelled extends Error {}
class Fault extends Error {
  key: string | null
  /** The system's error code (ENOSPC…), so the parent can tell a full store from a file it could not read. */
  code: string | undefined
  constructor(key: string | null, error: unknown) {
    super(messageOf(error))
    this.key = key
    this.code = codeOf(error)
  }
}

type Ignore = ReturnType<typeof ignore>
/** The rules of one ignore file, matched against paths relative to its folder `base`. */
interface Level {
  base: Buffer
  ig: Ignore
}
interface Dir {
  rel: Buffer
  levels: Level[]
}

// The state of the scan in progress, set by `reset` when a `scan` message arrives.
let input: ScanInput
let rootPath = EMPTY
let batchBytes = 0
/** Path key → index of its entry in `input.cache`. */
let cacheIndex = new Map<string, number>()
let counts: WireCounts = { filesSeen: 0, filesHashed: 0, bytesHashed: 0, reusedFromCache: 0 }
let skipped: WireSkip[] = []
let recorded = 0
let batch: WireFile[] = []
/** The batch's entries in walk order (see `order` in the protocol). */
let order: number[] = []
let buffer: ArrayBuffer | null = null
let used = 0
let lastProgress = 0
let sinceCancelCheck = 0
let cancelled = false
let openTemp: string | null = null
let sentBatches = 0
let storedBatches = new Int32Array(new SharedArrayBuffer(4))
/** The workspace's preset deflate dictionary: given, or built by this scan from `samples`; null until then. */
let dictionary: Buffer | null = null
let samples: Buffer[] = []
let sampledBytes = 0
/** A dictionary this scan built, sent with the next batch (before any row that needs it is stored). */
let builtDictionary: Buffer | null = null
/** The batch is full, or progress is due: hand it over before the next entry. */
let handOverDue = false
/** Kept from scan to scan, like this worker; replaced if it failed. */
let deflateHelper: DeflateHelper | null = null
/** Bytes this worker deflated itself, over all its scans (see packInline). */
let deflatedHere = 0

function reset(next: ScanInput): void {
  input = next
  rootPath = Buffer.from(next.root)
  batchBytes = Math.max(4 * 1024 * 1024, next.inlineMaxBytes)
  const keys = next.cache.kinds.length === 0 ? [] : next.cache.keys.split('\0')
  cacheIndex = new Map(keys.map((key, index) => [key, index]))
  counts = { filesSeen: 0, filesHashed: 0, bytesHashed: 0, reusedFromCache: 0 }
  skipped = []
  recorded = 0
  batch = []
  order = []
  buffer = null
  used = 0
  lastProgress = Date.now()
  sinceCancelCheck = 0
  cancelled = false
  openTemp = null
  sentBatches = 0
  storedBatches = new Int32Array(next.flow)
  const given = next.deflateDictionary.current
  dictionary = given ? Buffer.from(given.buffer, given.byteOffset, given.byteLength) : null
  samples = []
  sampledBytes = 0
  builtDictionary = null
  handOverDue = false
  if (deflateHelper && (deflateHelper.failed || deflateHelper.path !== next.deflateWorker)) {
    void deflateHelper.end()
    deflateHelper = null
  }
  deflateHelper?.forget()
}

/** Between scans the worker holds nothing of the last one (its cache can be large). */
function release(): void {
  input.cache = { keys: '', kinds: new Uint8Array(0), sizes: new Float64Array(0), modes: new Uint32Array(0), mtimeNs: new BigInt64Array(0), ctimeNs: new BigInt64Array(0), inos: new BigUint64Array(0) }
  cacheIndex = new Map()
  batch = []
  order = []
  buffer = null
  skipped = []
  dictionary = null
  samples = []
}

const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer)
const abs = (rel: Buffer): Buffer => (rel.length === 0 ? rootPath : Buffer.concat([rootPath, SLASH, rel]))
const child = (parent: Buffer, name: Buffer): Buffer => (parent.length === 0 ? Buffer.from(name) : Buffer.concat([parent, SLASH, name]))
const isGitName = (name: Buffer): boolean => name.length === 4 && name.toString('latin1').toLowerCase() === '.git'
/** workspace-fs.ts TEMP_PREFIX (this file imports no module of the app): a rewind's temp and set-aside files, never the user's. */
const RETRACE_TEMP = Buffer.from('.retrace-tmp-')
// Compared in place: asked of every file of the walk, so no slice is allocated for it.
const isRetraceTemp = (name: Buffer): boolean => name.length >= RETRACE_TEMP.length && RETRACE_TEMP.compare(name, 0, RETRACE_TEMP.length) === 0
const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? ''
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
const skip = (key: string, reason: string, folder = false): void => void skipped.push({ key, folder, reason })
const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`
const tooLarge = (size: number): string => `it is larger than the ${mib(input.maxFileBytes)} file size limit (${mib(size)})`

function cancelRequested(): boolean {
  for (let m = receiveMessageOnPort(port); m && !cancelled; m = receiveMessageOnPort(port)) {
    cancelled = (m.message as ParentMessage).type === 'cancel'
  }
  return cancelled
}

/** Between entries and chunks: notice a cancel promptly, report progress every 100 ms (and then hand over finished files). */
function tick(force = false): void {
  if (force || ++sinceCancelCheck >= 32) {
    sinceCancelCheck = 0
    if (cancelRequested()) throw new Cancelled()
  }
  const now = Date.now()
  if (now - lastProgress >= PROGRESS_MS) {
    lastProgress = now
    handOverDue = true
    post({ type: 'progress', ...counts })
  }
}

/** Wait (blocking, this thread has nothing else to do) until the parent has stored all but a few batches. */
function awaitRoomInFlight(): void {
  for (let done = Atomics.load(storedBatches, 0); sentBatches - done >= MAX_IN_FLIGHT; done = Atomics.load(storedBatches, 0)) {
    Atomics.wait(storedBatches, 0, done, PROGRESS_MS)
    if (cancelRequested()) throw new Cancelled()
  }
}

/** Hand the batch over, once the helper has answered for its files and the parent has room for it. */
async function flush(): Promise<void> {
  handOverDue = false
  if (order.length === 0) return
  await deflateHelper?.settled()
  awaitRoomInFlight()
  sentBatches++
  const content = used > 0 ? buffer : null
  const entries = Int32Array.from(order)
  const built = builtDictionary ? { dictionary: new Uint8Array(builtDictionary) } : {}
  builtDictionary = null
  post({ type: 'batch', files: batch, buffer: content, order: entries, ...built }, content ? [content, entries.buffer] : [entries.buffer])
  batch = []
  order = []
  if (content) [buffer, used] = [null, 0]
}

function record(file: WireFile): void {
  recorded++
  order.push(-1 - batch.length)
  batch.push(file)
  if (batch.length >= BATCH_FILES) handOverDue = true
}

/** An unchanged file: the parent already has its entry, so only its index travels. */
function recordCached(index: number): void {
  recorded++
  counts.reusedFromCache++
  order.push(index)
  if (order.length >= BATCH_ENTRIES) handOverDue = true
}

/** The cache entry `key` matches on every stat field (kind, size, mode, mtime, ctime, inode), or -1. */
function cacheHit(key: string, kind: WireKind, st: BigIntStats, mode: number): number {
  const index = cacheIndex.get(key)
  if (index === undefined) return -1
  const c = input.cache
  const same = c.kinds[index] === (kind === 'file' ? 0 : 1) && c.sizes[index] === Number(st.size) && c.modes[index] === mode && c.mtimeNs[index] === st.mtimeNs && c.ctimeNs[index] === st.ctimeNs && c.inos[index] === st.ino
  return same ? index : -1
}

/** Run one fs call for `key`: a vanished entry gives null, a denied one is skipped with a reason, anything else stops the scan naming the path. */
function guarded<T>(key: string, folder: boolean, call: () => T): T | null {
  try {
    return call()
  } catch (error) {
    const code = codeOf(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    if (code === 'EACCES' || code === 'EPERM') skip(key, `permission denied: the ${folder ? 'folder' : 'file'} could not be read`, folder)
    else if (code === 'ELOOP' || code === 'EINVAL') skip(key, 'it changed type while being scanned') // O_NOFOLLOW hit a link; readlink hit a non-link
    else if (code === 'ENAMETOOLONG') skip(key, 'its path is too long for the operating system', folder)
    else throw new Fault(key, error)
    return null
  }
}

function readIgnoreFile(base: Buffer, file: Buffer): Level | null {
  try {
    return { base, ig: ignore({ ignorecase: IGNORE_CASE }).add(readFileSync(file, 'utf8')) }
  } catch {
    return null // missing or unreadable: git goes on without it too
  }
}

/** git's precedence: later rules win inside a file, deeper files win over shallower ones. */
function isIgnored(levels: Level[], rel: Buffer, isDir: boolean): boolean {
  let ignored = false
  for (const level of levels) {
    try {
      const sub = strictUtf8.decode(level.base.length === 0 ? rel : rel.subarray(level.base.length + 1))
      const result = level.ig.test(isDir ? `${sub}/` : sub)
      if (result.ignored) ignored = true
      else if (result.unignored) ignored = false
    } catch {
      // Not UTF-8, or a name `ignore` refuses as a path (e.g. `...`): it cannot match, so it is recorded.
    }
  }
  return ignored
}

const sameStat = (a: BigIntStats, b: BigIntStats): boolean =>
  a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode

/**
 * A file whose ctime is within one timestamp tick of the moment we read it can be written again
 * without its stat changing (git's "racily clean" problem): the next scan must re-read it.
 * ctime alone decides: every write sets it to the current (coarse) time and nobody can set it
 * back, unlike mtime. Whole-second timestamps suggest a file system with 1-2 s resolution.
 */
function isRacy(st: BigIntStats, startedMs: number): boolean {
  const coarse = st.mtimeNs % NS_PER_S === 0n && st.ctimeNs % NS_PER_S === 0n
  const windowMs = coarse ? Math.max(2000, input.racyWindowMs) : input.racyWindowMs
  return st.ctimeNs >= BigInt(startedMs - windowMs) * NS_PER_MS
}

function describeSpecial(st: BigIntStats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file'
  return 'not a regular file, link or folder'
}

/**
 * Until the workspace has a dictionary: keep the start of a text file (no NUL byte in it; what
 * a binary file starts with is rarely shared), and once the samples fill a dictionary, use it.
 * Samples taken in walk order need no pass of their own. They do as well as evenly spaced ones on
 * the benchmark's workspace, and somewhat worse on node_modules, where the first folders are
 * less typical of the rest.
 */
function sampleForDictionary(offset: number, length: number): void {
  if (dictionary || !buffer || length < 64) return
  const { bytes, sampleBytes } = input.deflateDictionary
  const start = Buffer.from(buffer, offset, Math.min(length, sampleBytes))
  if (start.includes(0)) return
  samples.push(Buffer.from(start)) // a copy: the batch buffer is handed over
  sampledBytes += start.length
  if (sampledBytes < bytes) return
  dictionary = Buffer.concat(samples).subarray(0, bytes)
  builtDictionary = dictionary
  samples = []
}

/**
 * Deflate an inline file's bytes (at `file.offset` of the batch buffer) in place, with the
 * workspace's dictionary once there is one: on the deflate helper's thread if it takes them,
 * else here. Compression never runs on the main thread. Returns how many bytes the file
 * keeps in the buffer: all of them while the helper has not answered.
 */
function packInline(file: WireFile): number {
  if (!buffer || file.size < 128) return file.size
  if (deflateHelper?.take(file, buffer, dictionary)) return file.size
  // The helper starts once this worker has deflated enough itself (see DEFLATE_HELPER_FROM_BYTES in scan.ts).
  deflatedHere += file.size
  if (input.deflateWorker && !deflateHelper && deflatedHere >= input.deflateHelperFromBytes) deflateHelper = new DeflateHelper(input.deflateWorker)
  const raw = new Uint8Array(buffer, file.offset, file.size)
  keepIfWorthIt(file, raw, deflateRawSync(raw, dictionary ? { ...INLINE_DEFLATE, dictionary } : INLINE_DEFLATE), dictionary !== null)
  return file.packed ?? file.size
}

/** Packed bytes replace the raw ones only when they save at least a tenth (reading them back costs an inflate). */
function keepIfWorthIt(file: WireFile, raw: Uint8Array, packed: Uint8Array, withDictionary: boolean): void {
  if (packed.length > file.size * 0.9) return
  raw.set(packed)
  file.packed = packed.length
  if (withDictionary) file.withDictionary = true
}

/**
 * The deflate helper thread (deflate-worker.mts): it packs inline content on another core while
 * this thread walks, lstats and reads on. A capture after a 100-file edit spent a quarter of its
 * walk deflating; with the helper the deflates overlap the stats. The walk waits for the answers
 * only when it hands a batch over. Until the helper has started (its script loaded), and when it
 * falls behind (more than HELPER_BACKLOG_BYTES unanswered: a first capture, where everything is
 * read), the walk deflates files itself, so it never waits for it and both threads stay busy. If
 * the helper fails, its files simply stay raw (correct, only larger), and the next scan starts
 * another.
 */
class DeflateHelper {
  failed = false
  readonly path: string
  /** Set to 1 by the helper once its script has loaded: files handed over then are deflated at once. */
  private readonly ready = new Int32Array(new SharedArrayBuffer(4))
  private readonly thread: Worker
  private readonly jobs = new Map<number, { file: WireFile; target: ArrayBuffer; withDictionary: boolean }>()
  private nextId = 0
  private backlog = 0
  /** The dictionary the helper was last given (undefined: no options sent yet). */
  private given: Buffer | null | undefined = undefined
  private whenSettled: (() => void) | null = null

  constructor(path: string) {
    this.path = path
    this.thread = new Worker(path, { workerData: { ready: this.ready } satisfies DeflateHelperData })
    this.thread.on('message', (reply: DeflateReply) => this.answer(reply))
    this.thread.on('error', () => this.fail())
    this.thread.on('exit', () => this.fail())
  }

  /** Hand the helper `file`'s content at `file.offset` of `target`; false if it is not running yet, has enough to do, or failed: deflate it here. */
  take(file: WireFile, target: ArrayBuffer, withDictionary: Buffer | null): boolean {
    if (this.failed || Atomics.load(this.ready, 0) === 0 || this.backlog > HELPER_BACKLOG_BYTES) return false
    if (this.given !== withDictionary) {
      this.given = withDictionary
      this.send({ type: 'options', deflate: INLINE_DEFLATE, dictionary: withDictionary ? new Uint8Array(withDictionary) : null })
    }
    const id = this.nextId++
    const bytes = new Uint8Array(target, file.offset, file.size).slice() // a copy: a view would clone the whole batch buffer
    this.jobs.set(id, { file, target, withDictionary: withDictionary !== null })
    this.backlog += file.size
    this.send({ type: 'pack', id, bytes: bytes.buffer }, [bytes.buffer])
    return true
  }

  /** Settles once every file handed over has its answer applied (or, if the helper failed, stays raw). */
  settled(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve()
    return new Promise((resolve) => (this.whenSettled = resolve))
  }

  end(): Promise<number> {
    return this.thread.terminate()
  }

  /** A new scan: answers still due for an abandoned one are dropped when they arrive. */
  forget(): void {
    this.jobs.clear()
    this.backlog = 0
    this.given = undefined
  }

  private send(request: DeflateRequest, transfer: ArrayBuffer[] = []): void {
    this.thread.postMessage(request, transfer)
  }

  private answer(reply: DeflateReply): void {
    const job = this.jobs.get(reply.id)
    if (!job) return
    this.jobs.delete(reply.id)
    this.backlog -= job.file.size
    keepIfWorthIt(job.file, new Uint8Array(job.target, job.file.offset, job.file.size), reply.packed, job.withDictionary)
    if (this.jobs.size === 0) this.settle()
  }

  private fail(): void {
    this.failed = true
    this.jobs.clear()
    this.settle()
  }

  private settle(): void {
    const resolve = this.whenSettled
    this.whenSettled = null
    resolve?.()
  }
}

/**
 * Room for `size` bytes at `used` in the batch buffer; finished files are handed over first if
 * it is full. The buffer is not zero-filled (allocUnsafeSlow: its own ArrayBuffer, not the
 * pool's): clearing 4 MiB per batch cost more than a small edit's whole read, and the parent
 * reads only the ranges files were read into.
 */
async function room(size: number): Promise<Uint8Array> {
  if (buffer && used + size > buffer.byteLength) await flush()
  buffer ??= Buffer.allocUnsafeSlow(batchBytes).buffer
  return new Uint8Array(buffer, used, size)
}

async function readInline(fd: number, size: number): Promise<{ length: number; hash: string }> {
  const view = await room(size)
  let length = 0
  for (let n = -1; length < size && n !== 0; length += n) n = readSync(fd, view, length, size - length, length)
  counts.bytesHashed += length
  return { length, hash: createHash('sha256').update(view.subarray(0, length)).digest('hex') }
}

/**
 * One pass over a large file: sha256 and gzip into a fsynced temp file, memory bounded by the
 * stream buffers. The source and sink use our descriptors without owning them: fs streams
 * given an fd close it when a pipeline is torn down (on cancel), and our own close would then
 * hit a descriptor number that may already belong to another file.
 */
async function readLarge(fd: number, temp: string): Promise<{ length: number; hash: string }> {
  const hasher = createHash('sha256')
  let length = 0
  const source = new Readable({
    read() {
      try {
        tick(true)
        const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
        const n = readSync(fd, chunk, 0, CHUNK_BYTES, length)
        hasher.update(chunk.subarray(0, n))
        length += n
        counts.bytesHashed += n
        this.push(n === 0 ? null : chunk.subarray(0, n))
      } catch (error) {
        this.destroy(error as Error)
      }
    }
  })
  openTemp = temp
  const out = openSync(temp, 'wx', 0o600)
  try {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        try {
          for (let offset = 0; offset < chunk.length; ) offset += writeSync(out, chunk, offset)
          done()
        } catch (error) {
          done(error as Error)
        }
      }
    })
    await pipeline(source, createGzip({ level: 1 }), sink)
    fsyncSync(out)
  } finally {
    closeSync(out)
  }
  return { length, hash: hasher.digest('hex') }
}

/**
 * Read and hash a regular file. Its stat is taken on the open descriptor before and after the
 * read; if it changed meanwhile the read is retried, and the last attempt is kept but marked
 * racy so the next scan reads it again.
 */
async function readFile(rel: Buffer, key: string): Promise<WireFile | null> {
  for (let attempt = 1; ; attempt++) {
    const fd = guarded(key, false, () => openSync(abs(rel), OPEN_FLAGS))
    if (fd === null) return null
    let temp: string | null = null
    try {
      const before = fstatSync(fd, { bigint: true })
      const size = Number(before.size)
      const refusal = !before.isFile() ? 'it changed type while being scanned' : size > input.maxFileBytes ? tooLarge(size) : null
      if (refusal) {
        skip(key, refusal)
        return null
      }
      const startedMs = Date.now()
      const inline = size <= input.inlineMaxBytes
      if (!inline) temp = join(input.tempDir, `${process.pid}-scan-${randomBytes(8).toString('hex')}.tmp`) // <pid>-: see process-owner.ts
      const { length, hash } = temp ? await readLarge(fd, temp) : await readInline(fd, size)
      const stable = length === size && sameStat(before, fstatSync(fd, { bigint: true }))
      if (!stable && attempt < READ_ATTEMPTS) continue
      if (!temp) sampleForDictionary(used, length)
      const file: WireFile = { key, kind: 'file', size: length, mode: Number(before.mode & 0o7777n), hash, mtimeNs: before.mtimeNs, ctimeNs: before.ctimeNs, ino: before.ino, source: temp ? 'temp' : 'inline', offset: used, packed: null, temp, racy: !stable || isRacy(before, startedMs) }
      if (!temp) used += packInline(file)
      temp = null // handed over with the file
      return file
    } catch (error) {
      if (error instanceof Cancelled) throw error
      throw new Fault(key, error)
    } finally {
      closeSync(fd)
      if (temp) rmSync(temp, { force: true })
      openTemp = null
    }
  }
}

/** A link is recorded as its target bytes, never followed. */
async function readLink(rel: Buffer, key: string, st: BigIntStats): Promise<WireFile | null> {
  const startedMs = Date.now()
  const target = guarded(key, false, () => readlinkSync(abs(rel), { encoding: 'buffer' }))
  if (target === null) return null
  const after = guarded(key, false, () => lstatSync(abs(rel), { bigint: true }))
  if (after === null) return null
  ;(await room(target.length)).set(target)
  counts.bytesHashed += target.length
  const hash = createHash('sha256').update(target).digest('hex')
  const file: WireFile = { key, kind: 'symlink', size: target.length, mode: Number(st.mode & 0o7777n), hash, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, source: 'inline', offset: used, packed: null, temp: null, racy: !sameStat(st, after) || isRacy(st, startedMs) }
  used += target.length
  return file
}

/** Record one non-folder entry. Returns false once `maxFiles` is reached. */
async function visit(rel: Buffer): Promise<boolean> {
  tick()
  const key = rel.toString('latin1')
  const st = guarded(key, false, () => lstatSync(abs(rel), { bigint: true }))
  if (st === null) return true
  const kind = st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : null
  if (kind === null) {
    counts.filesSeen++
    skip(key, st.isDirectory() ? 'it changed type while being scanned' : `it is ${describeSpecial(st)}, which Retrace does not record`)
    return true
  }
  if (recorded >= input.maxFiles) return false
  counts.filesSeen++
  if (kind === 'file' && st.size > BigInt(input.maxFileBytes)) {
    skip(key, tooLarge(Number(st.size)))
    return true
  }
  const hit = cacheHit(key, kind, st, Number(st.mode & 0o7777n))
  if (hit >= 0) {
    recordCached(hit)
    return true
  }
  const file = kind === 'symlink' ? await readLink(rel, key, st) : await readFile(rel, key)
  if (file) {
    counts.filesHashed++
    record(file)
  }
  return true
}

function listDir(rel: Buffer): Dirent<Buffer>[] | null {
  const entries = guarded(rel.toString('latin1'), true, () => readdirSync(abs(rel), { encoding: 'buffer', withFileTypes: true }))
  return entries ? entries.sort((a, b) => Buffer.compare(a.name, b.name)) : null
}

/** Depth-first in byte order (deterministic, so a truncated scan is repeatable). Returns false if truncated. */
async function walk(): Promise<boolean> {
  const exclude = readIgnoreFile(EMPTY, Buffer.concat([rootPath, Buffer.from('/.git/info/exclude')]))
  const stack: Dir[] = [{ rel: EMPTY, levels: exclude ? [exclude] : [] }]
  for (let dir = stack.pop(); dir; dir = stack.pop()) {
    const entries = listDir(dir.rel)
    if (!entries) continue
    // Only a regular file: like git (2.32+), a .gitignore that is a symlink is not followed.
    const own = entries.find((entry) => entry.isFile() && entry.name.equals(GITIGNORE))
    const level = own ? readIgnoreFile(dir.rel, abs(child(dir.rel, own.name))) : null
    const levels = level ? [...dir.levels, level] : dir.levels
    const subdirs: Dir[] = []
    for (const entry of entries) {
      if (isGitName(entry.name)) continue // any .git, any case, file or folder: never read (R19)
      const isDir = entry.isDirectory()
      if (!isDir && isRetraceTemp(entry.name)) continue // a rewind under way, or one whose set-aside files are still being removed
      const rel = child(dir.rel, entry.name)
      if (isIgnored(levels, rel, isDir)) continue
      if (isDir) subdirs.push({ rel, levels })
      else if (!(await visit(rel))) return false
      if (handOverDue) await flush()
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as Dir)
  }
  return true
}

async function scan(next: ScanInput): Promise<void> {
  try {
    reset(next)
    const complete = await walk()
    await flush()
    post({ type: 'done', skipped, truncated: !complete, counts })
  } catch (error) {
    // Temp files of files not yet handed over would be orphans: remove them.
    for (const file of batch) if (file.temp) rmSync(file.temp, { force: true })
    if (openTemp) rmSync(openTemp, { force: true })
    if (error instanceof Cancelled) post({ type: 'cancelled' })
    else {
      const code = (error as { code?: unknown }).code
      post({ type: 'error', key: error instanceof Fault ? error.key : null, message: messageOf(error), ...(typeof code === 'string' ? { code } : {}) })
    }
  } finally {
    release()
  }
}

let running = false
// A cancel is usually taken by `cancelRequested` between files; one that arrives while a large
// file is being streamed (the event loop turns) lands here instead.
port.on('message', (message: ParentMessage) => {
  if (message.type === 'cancel') {
    cancelled = true
    return
  }
  if (running) {
    post({ type: 'error', key: null, message: 'a scan was started while another one was running in the same worker' })
    return
  }
  running = true
  void scan(message.input).finally(() => (running = false))
})
