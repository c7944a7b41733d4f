/**
 * A blob writer thread: one lane of several of a large rewind (see ReplaceLane below and
 * rewind/threaded-replace.ts). It decodes each inline blob, checks it against its hash, writes it
 * to a temp file and replaces the target with it. A rewind spends most of its time in this
 * per-file work; threads of its own let it run on every core. One thread of the
 * pool is the flusher instead: it runs file-system flushes through a helper process it keeps
 * (FlushHelper), for the lanes (serveFlushes) and for `sync` requests.
 *
 * Self-contained on purpose, like scan-worker.mts: only node:* builtins and `import type`, and
 * only erasable TypeScript, because under vitest Node runs this file directly.
 */
import { createHash } from 'node:crypto'
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { closeSync, constants, fchmodSync, linkSync, lstatSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { parentPort, receiveMessageOnPort } from 'node:worker_threads'
import { inflateRawSync } from 'node:zlib'
import type { ExpectedFile, FailureKind, PrepareFlushesRequest, ReplaceJob, ReplaceRequest, ServeFlushesRequest, StoredContent, SyncRequest, WriterReply, WriterRequest } from './blob-writer-protocol'

if (!parentPort) throw new Error('blob-writer-worker.mts must run in a worker thread')
const port = parentPort

// A fresh file only: never one that exists, never through a link planted at the name.
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'replace') port.postMessage(new ReplaceLane(request).run())
  else if (request.kind === 'sync') void syncFileSystem(request).then((reply) => port.postMessage(reply))
  else if (request.kind === 'prepare-flushes') port.postMessage(prepareFlushes(request))
  else void serveFlushes(request).then((reply) => port.postMessage(reply))
})

/** A failure with the kind the reply reports; plain errors (with a `code`) are `io`. */
class Failure extends Error {
  readonly kind: FailureKind

  constructor(kind: FailureKind, message: string) {
    super(message)
    this.kind = kind
  }
}

function failure(id: number, error: unknown, job?: number): WriterReply {
  const { message, code } = error as NodeJS.ErrnoException
  const kind = error instanceof Failure ? error.kind : 'io'
  return { id, ok: false, kind, message, ...(code === undefined ? {} : { code }), ...(job === undefined ? {} : { job }) }
}

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** The blob's content, decoded and checked against its hash. */
function decodeVerified(stored: StoredContent): Buffer {
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

const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex')

/** Create `target` (which must not exist) holding `content` with exactly `mode`; on failure nothing is left there. */
function createFile(target: Buffer, content: Buffer, mode: number): void {
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

function removeQuietly(path: Buffer): void {
  try {
    unlinkSync(path)
  } catch {
    // Already gone; the caller removes its temp files on failure anyway.
  }
}

/**
 * Runs `program --file-system -- PATH` (coreutils sync: syncfs(2)) for each path asked, from one
 * small shell that stays running. Starting a process from this one copies the page tables of
 * the whole (large) process: tens of milliseconds each time at the few hundred megabytes an app
 * holds; the shell's own starts of `sync` cost about a millisecond. Paths go to the shell as raw
 * bytes on a line and are only ever quoted arguments, never shell text. Each request gets one
 * line back, in order: `ok`, or `fail` and the program's complaint.
 */
class FlushHelper {
  private static readonly script = [
    'while IFS= read -r path; do',
    '  if err=$("$0" --file-system -- "$path" 2>&1 </dev/null); then echo ok',
    '  else printf \'fail %s\\n\' "$(printf %s "$err" | tr \'\\n\' \' \')"; fi',
    'done'
  ].join('\n')

  private readonly program: string
  private child: ChildProcess | null = null
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = []
  private output = ''

  constructor(program: string) {
    this.program = program
  }

  /** Start the helper now, if it is not running: the first flush then does not wait for it. */
  start(): void {
    this.running()
  }

  sync(path: Uint8Array): Promise<void> {
    const bytes = toBuffer(path)
    // A line per path: a name with a line break (legal, if unheard of) gets a process of its own.
    if (bytes.includes(0x0a)) return syncOnce(this.program, bytes.toString())
    return new Promise<void>((resolve, reject) => {
      const child = this.running()
      this.waiting.push({ resolve, reject })
      child.stdin?.write(Buffer.concat([bytes, Buffer.from('\n')]))
    })
  }

  private running(): ChildProcess {
    if (this.child) return this.child
    const child = spawn('/bin/sh', ['-c', FlushHelper.script, this.program], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true })
    child.stdout?.setEncoding('utf8')
    child.stdout?.on('data', (text: string) => this.answer(text))
    child.stdin?.on('error', () => undefined) // the helper died: 'exit' fails what waits
    const died = (why: string) => {
      if (this.child !== child) return
      this.child = null
      for (const waiter of this.waiting.splice(0)) waiter.reject(flushFailure(`the flush helper stopped (${why})`))
    }
    child.on('error', (error) => died(error.message))
    child.on('exit', (code, signal) => died(signal ?? `exit ${code}`))
    this.child = child
    return child
  }

  private answer(text: string): void {
    this.output += text
    for (let end = this.output.indexOf('\n'); end !== -1; end = this.output.indexOf('\n')) {
      const line = this.output.slice(0, end)
      this.output = this.output.slice(end + 1)
      const waiter = this.waiting.shift()
      if (line === 'ok') waiter?.resolve()
      else waiter?.reject(flushFailure(line.replace(/^fail /, '').trim() || 'the program failed'))
    }
  }
}

const flushFailure = (why: string) => Object.assign(new Error(`EIO: flushing the file system failed: ${why}`), { code: 'EIO' })

/** One process for one flush: the rare path a helper's line protocol cannot carry. */
function syncOnce(program: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, ['--file-system', '--', path], { windowsHide: true }, (error, _stdout, stderr) => {
      if (error) reject(flushFailure(String(stderr).trim() || error.message))
      else resolve()
    })
  })
}

const helpers = new Map<string, FlushHelper>()

function helperFor(program: string): FlushHelper {
  let helper = helpers.get(program)
  if (!helper) helpers.set(program, (helper = new FlushHelper(program)))
  return helper
}

/** A `sync` request: flush the file system holding `path`; the reply carries the program's complaint if it failed. */
async function syncFileSystem({ id, program, path }: SyncRequest): Promise<WriterReply> {
  try {
    await helperFor(program).sync(path)
    return { id, ok: true }
  } catch (error) {
    return failure(id, error)
  }
}

/** A `prepare-flushes` request: the helper for `program` started ahead of the flushes. */
function prepareFlushes({ id, program }: PrepareFlushesRequest): WriterReply {
  try {
    helperFor(program).start()
    return { id, ok: true }
  } catch (error) {
    return failure(id, error) // the first flush will try again, and report it
  }
}

/**
 * Serve the flushes a rewind's lanes ask for (ServeFlushesRequest), one at a time, without
 * blocking any lane: a lane asks and goes on writing temps. Each flush covers the temps the
 * lanes had written when it was asked (their `covering` counts); once it is done those become
 * `flushed` and the lanes are woken. A failed flush stops every lane.
 */
async function serveFlushes(request: ServeFlushesRequest): Promise<WriterReply> {
  const { id, layout, program, root, fault } = request
  const shared = new Int32Array(request.shared)
  let served = 0
  for (;;) {
    const asked = Atomics.load(shared, layout.flushAsked)
    // Ended (every lane replied, so none waits for a flush): the main thread cleared `serving`,
    // then bumped `flushAsked`, which is what wakes this loop.
    if (Atomics.load(shared, layout.serving) === 0) return { id, ok: true }
    if (asked > served) {
      served = asked
      try {
        if (fault?.flush === served && fault.code === 'KILL') process.kill(process.pid, 'SIGKILL')
        if (fault?.flush === served) throw Object.assign(new Error(`${fault.code}: injected failure`), { code: fault.code })
        await helperFor(program).sync(root)
      } catch (error) {
        Atomics.store(shared, layout.stop, 1)
        Atomics.store(shared, layout.flushing, 0)
        wake(shared, layout.events)
        return failure(id, error)
      }
      for (const lane of layout.lanes) Atomics.store(shared, lane.flushed, Atomics.load(shared, lane.covering))
      Atomics.store(shared, layout.flushBatch, Atomics.load(shared, layout.flushBatch) * 2)
      Atomics.store(shared, layout.flushing, 0)
      wake(shared, layout.events)
      continue
    }
    const waited = Atomics.waitAsync(shared, layout.flushAsked, asked)
    if (waited.async) await waited.value
  }
}

/** Bump a counter others Atomics.wait on, and wake them. */
function wake(shared: Int32Array, slot: number): void {
  Atomics.add(shared, slot, 1)
  Atomics.notify(shared, slot)
}

/** A lane waits at most this long for an event before looking again (a lost wake-up costs no more than this). */
const WAIT_MS = 50

/**
 * One lane of a large rewind (ReplaceRequest). Runs synchronously to the end: it takes its jobs
 * from its port with receiveMessageOnPort and learns of flushes and stops through shared
 * memory, so no message has to wait for this thread's event loop. Each job: temp written
 * (without fsync), then, once a flush started after that covers it, the target checked and the
 * temp renamed over it. Whichever lane needs a flush asks the flusher thread for one
 * (serveFlushes), one at a time, covering every lane's temps, and goes on writing meanwhile: a
 * flush costs a journal commit and waits for the disk, so each is made to cover many files.
 *
 * The rules are those of the one-by-one rewind (rewind/steps.ts): no folder on the way is a
 * link (WorkspaceFs.resolve's rule, checked again here before the temp is created and before
 * the rename), the target holds what the plan saw (an unchanged lstat stamp, or the same hash
 * and mode), every temp durable before its rename. On any failure all lanes stop; the main
 * thread then removes the temps left and reverts the replaced files, as `renamed` says.
 */
class ReplaceLane {
  private readonly request: ReplaceRequest
  private readonly shared: Int32Array
  private readonly slots: { written: number; covering: number; flushed: number; renamed: number }
  private readonly jobs: ReplaceJob[] = []
  private ended = false
  private written = 0
  private renamed = 0
  private calls = 0
  /** The job being written or replaced, named in a failure's reply (none while flushing). */
  private current: number | undefined

  constructor(request: ReplaceRequest) {
    this.request = request
    this.shared = new Int32Array(request.shared)
    const slots = request.layout.lanes[request.lane]
    if (!slots) throw new Error(`no lane ${request.lane}`)
    this.slots = slots
  }

  run(): WriterReply {
    const { id, layout } = this.request
    try {
      for (;;) {
        const seen = Atomics.load(this.shared, layout.events)
        if (Atomics.load(this.shared, layout.stop) !== 0) return { id, ok: false, kind: 'stopped', message: 'another lane stopped the rewind' }
        this.takeJobs()
        const mayReplace = Atomics.load(this.shared, layout.go) !== 0
        if (mayReplace && this.renamed < Atomics.load(this.shared, this.slots.flushed)) this.replace()
        else if (this.written < this.jobs.length) this.writeTemp()
        else if (this.ended && this.renamed === this.jobs.length) return { id, ok: true }
        else if (!this.flush()) Atomics.wait(this.shared, layout.events, seen, WAIT_MS)
      }
    } catch (error) {
      this.stopAll()
      return failure(id, error, this.current)
    } finally {
      this.request.jobs.close()
    }
  }

  private takeJobs(): void {
    for (let received = receiveMessageOnPort(this.request.jobs); received; received = receiveMessageOnPort(this.request.jobs)) {
      const chunk = received.message as ReplaceJob[] | null
      if (chunk === null) this.ended = true
      else this.jobs.push(...chunk)
    }
  }

  private writeTemp(): void {
    this.current = this.written
    const job = this.jobs[this.written] as ReplaceJob
    const temp = toBuffer(job.temp)
    const content = decodeVerified(job)
    this.noLinkOnTheWay(temp)
    this.call()
    try {
      createFile(temp, content, job.mode)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      this.call()
      mkdirSync(temp.subarray(0, temp.lastIndexOf(0x2f)), { recursive: true }) // a folder the rewind brings back
      this.call()
      createFile(temp, content, job.mode)
    }
    this.written += 1
    Atomics.store(this.shared, this.slots.written, this.written)
    if (this.unflushed() >= Atomics.load(this.shared, this.request.layout.flushBatch)) this.flush()
  }

  private replace(): void {
    this.current = this.renamed
    const job = this.jobs[this.renamed] as ReplaceJob
    const target = toBuffer(job.target)
    this.noLinkOnTheWay(target)
    this.call()
    checkTarget(target, job.expected)
    if (job.aside) {
      this.call() // counted like any call: an injected fault here stops the rewind
      setAside(target, toBuffer(job.aside))
    }
    this.call()
    renameSync(toBuffer(job.temp), target)
    this.renamed += 1
    Atomics.store(this.shared, this.slots.renamed, this.renamed)
  }

  /** Temps of every lane written but not yet covered by a flush. */
  private unflushed(): number {
    return this.request.layout.lanes.reduce((sum, lane) => sum + Atomics.load(this.shared, lane.written) - Atomics.load(this.shared, lane.flushed), 0)
  }

  /**
   * Ask the flusher for a flush covering every temp written so far (all lanes), unless a flush
   * is under way or none is waiting. Does not wait for it: the flusher publishes what it
   * covered as `flushed` and wakes the lanes (serveFlushes). True if it asked. (Flushing
   * changes no target: it runs before `go` too.)
   */
  private flush(): boolean {
    const { layout } = this.request
    if (this.unflushed() === 0 || Atomics.compareExchange(this.shared, layout.flushing, 0, 1) !== 0) return false
    this.current = undefined
    try {
      this.call()
    } catch (error) {
      Atomics.store(this.shared, layout.flushing, 0)
      throw error
    }
    for (const lane of layout.lanes) Atomics.store(this.shared, lane.covering, Atomics.load(this.shared, lane.written))
    Atomics.add(this.shared, layout.flushAsked, 1)
    Atomics.notify(this.shared, layout.flushAsked)
    return true
  }

  private stopAll(): void {
    Atomics.store(this.shared, this.request.layout.stop, 1)
    this.wakeAll()
  }

  private wakeAll(): void {
    wake(this.shared, this.request.layout.events)
  }

  /** WorkspaceFs.resolve's rule: refused if a folder between the root and `path` is a link (a missing one will be created inside). */
  private noLinkOnTheWay(path: Buffer): void {
    const rootLength = Buffer.byteLength(this.request.root)
    for (let slash = path.indexOf(0x2f, rootLength + 1); slash !== -1; slash = path.indexOf(0x2f, slash + 1)) {
      this.call()
      let stats
      try {
        stats = lstatSync(path.subarray(0, slash))
      } catch {
        return
      }
      if (stats.isSymbolicLink()) throw new Failure('refused', 'a folder on its path is a symbolic link, and Retrace never writes through links')
      if (!stats.isDirectory()) return
    }
  }

  /** Counts a file-system call, for tests that fail or kill at each one in turn. */
  private call(): void {
    this.calls += 1
    const fault = this.request.fault
    if (fault?.call !== this.calls) return
    if (fault.code === 'KILL') process.kill(process.pid, 'SIGKILL')
    throw Object.assign(new Error(`${fault.code}: injected failure`), { code: fault.code })
  }
}

/** Refuses unless `target` holds `expected` (null: nothing), as rewind/steps.ts checkBefore does. */
function checkTarget(target: Buffer, expected: ExpectedFile | null): void {
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

/**
 * Link the file about to be replaced at `aside`, so the rename that follows only drops a name
 * and frees no blocks (see rewind/set-aside.ts). Where the file system has no hard links, or
 * refuses this one (EPERM under protected_hardlinks, EMLINK), the rename frees it as before.
 */
function setAside(target: Buffer, aside: Buffer): void {
  try {
    linkSync(target, aside)
  } catch {
    // Not set aside: the rename frees the file itself. Nothing is lost either way.
  }
}

const HASH_CHUNK = 1024 * 1024

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

// Loaded: tell the pool (READY_REPLY_ID in blob-writer-protocol.ts; this file imports only its types).
port.postMessage({ id: 0, ok: true } satisfies WriterReply)
