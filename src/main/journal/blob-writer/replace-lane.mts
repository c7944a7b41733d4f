import { lstatSync, mkdirSync, renameSync } from 'node:fs'
import { receiveMessageOnPort } from 'node:worker_threads'
import type { ExpectedFile, ReplaceJob, ReplaceRequest, WriterReply } from '../blob-writer-protocol.ts'
import { Failure, failure } from './failure.mts'
import { checkTarget, createFile, decodeVerified, holdsExpected, linkNoReplace, putBack, removeQuietly, stampHolds, toBuffer } from './target-files.mts'
import { wake } from './wake.mts'

/** A lane waits at most this long for an event before looking again (a lost wake-up costs no more than this). */
const WAIT_MS = 50

/**
 * One lane of a large rewind (ReplaceRequest). Runs synchronously to the end: it takes its jobs
 * from its port with receiveMessageOnPort and learns of flushes and stops through shared
 * memory, so no message has to wait for this thread's event loop. Each job: temp written
 * (without fsync), then, once a flush started after that covers it, the target moved aside,
 * proven, and the temp linked into its place (rewind/replace-file.ts). Whichever lane needs a flush asks the flusher thread for one
 * (serveFlushes in flusher.mts), one at a time, covering every lane's temps, and goes on writing
 * meanwhile: a flush costs a journal commit and waits for the disk, so each is made to cover
 * many files.
 *
 * The rules are those of the one-by-one rewind (rewind/steps.ts): no folder on the way is a
 * link (WorkspaceFs.resolve's rule, checked again here before the temp is created and before
 * the replace), the root is still the folder the rewind began in (before and after each), the
 * target moved aside holds what the plan saw (the plan's stamp, or the same hash and mode),
 * nothing is put over a file somebody created meanwhile, every temp durable before it is placed.
 * On any failure all lanes stop; the main thread then removes the temps left and reverts the
 * replaced files, as `renamed` (the count of temps placed) says.
 */
export class ReplaceLane {
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
    this.sameRoot()
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
    if (!this.rootIsSame()) {
      removeQuietly(temp) // made through a swapped root: it went into the other folder, and leaves it as it was
      this.sameRoot()
    }
    this.written += 1
    Atomics.store(this.shared, this.slots.written, this.written)
    if (this.unflushed() >= Atomics.load(this.shared, this.request.layout.flushBatch)) this.flush()
  }

  /**
   * Replace one target, losing nothing written to it meanwhile (rewind/replace-file.ts): the
   * file there is moved aside and proven to be what the plan saw (if not, it goes back and the
   * rewind stops), then the temp is linked at the path, which fails if somebody filled it
   * meanwhile, and the temp's name removed. Counted as replaced once the link is made.
   */
  private replace(): void {
    this.current = this.renamed
    const job = this.jobs[this.renamed] as ReplaceJob
    const target = toBuffer(job.target)
    const temp = toBuffer(job.temp)
    this.sameRoot()
    this.noLinkOnTheWay(target)
    this.call()
    if (job.expected !== null && job.aside) this.moveAside(target, toBuffer(job.aside), job.expected)
    else checkTarget(target, job.expected)
    try {
      this.call()
      if (!linkNoReplace(temp, target)) throw new Failure('changed', 'it was created again while the rewind was replacing it (is an agent still writing?)')
    } catch (error) {
      if (job.aside) putBack(toBuffer(job.aside), target) // nothing of the rewind's took the path: what was there goes back
      throw error
    }
    this.renamed += 1
    Atomics.store(this.shared, this.slots.renamed, this.renamed)
    this.call()
    removeQuietly(temp) // the second name (gone already where there are no hard links); a leftover is removed with the temps
    this.sameRoot() // and after: a root swapped during the calls stops the rewind here
  }

  /** Move `target` to `aside` and prove it is `expected`; a changed file goes back, and the rewind stops. */
  private moveAside(target: Buffer, aside: Buffer, expected: ExpectedFile): void {
    // The whole stamp (ctime too) still proving the content just before the move lets the mtime
    // prove it after; otherwise the moved file is hashed (a same-size edit with its mtime put back is caught).
    const proof = stampHolds(target, expected) ? expected : { ...expected, stamp: null }
    try {
      renameSync(target, aside)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new Failure('changed', 'it changed while the rewind was running (is an agent still writing?)')
      throw error
    }
    let holds = false
    try {
      this.call()
      holds = holdsExpected(aside, proof)
    } finally {
      if (!holds) putBack(aside, target)
    }
    if (!holds) throw new Failure('changed', 'it changed while the rewind was running (is an agent still writing?)')
  }

  /** Stops the lane unless the root's path still leads to the folder the rewind began in (WorkspaceFs.checkRoot). */
  private sameRoot(): void {
    if (!this.rootIsSame()) throw new Failure('replaced', 'the workspace folder was replaced while the rewind ran')
  }

  private rootIsSame(): boolean {
    const now = lstatSync(this.request.root, { bigint: true, throwIfNoEntry: false })
    const { dev, ino } = this.request.rootIdentity
    return now !== undefined && now.isDirectory() && now.dev === dev && now.ino === ino
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
