import { lstatSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { RetraceError } from '../../../shared/contract'
import type { ReplaceJob, ReplaceLayout, StoredContent, WriterReply } from '../blob-writer-protocol'
import type { BlobStore } from '../blob-store'
import type { BlobWriterPool } from '../blob-writers'
import { displayPath } from '../../fs/paths'
import { RootReplaced, sameVersion, type FsOps, type WorkspaceFs } from '../workspace-fs'
import { folderOf, type RootFileSystem } from './durability'
import { ChangedUnderfoot, plannedTemp, type Step } from './steps'

/**
 * Lanes of a large rewind: two per core, up to four. A lane spends much of each file blocked in
 * the kernel (creating its temp; the rename, which frees the replaced file's blocks and, on a
 * file system mounted with `discard`, waits for the device), and a second lane per core runs
 * meanwhile, keeping the cores busy (bench/README.md, the file journal).
 */
export const LANES = Math.min(4, 2 * availableParallelism())
/** Jobs posted to a lane at once: the lanes start on the first while the main thread prepares the rest. */
const CHUNK = 16
/** While a lane could still write, the first flush waits for this many temps (all lanes together); the batch doubles after each. */
const FIRST_FLUSH_BATCH = 256
const PROGRESS_MS = 50
/** Steps whose stored content is read from the store together (one statement, not one per file: the lanes wait for it). */
const CONTENT_WINDOW = 256

export interface ThreadedReplaceContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
  writers: BlobWriterPool
  /** The syncfs program (file-system-sync.ts). */
  program: string
  rootFs: RootFileSystem
  /** Tests: lane `lane`'s file-system call number `call` fails with `code` ('KILL': the process is killed). */
  fault?: { lane: number; call: number; code: string }
  /** Tests: the flusher's flush number `flush` fails with `code` ('KILL': the process is killed). */
  flushFault?: { flush: number; code: string }
}

export interface ThreadedOutcome {
  /** Steps whose files were replaced (a rollback reverts them). */
  replaced: Step[]
  /** Why the lanes stopped, and at which step (null: not at one file, a flush say). */
  failure: { step: Step | null; error: Error } | null
}

/**
 * A write step the lanes can take: a regular file replacing a regular file or nothing, in a
 * folder on the root's file system (one flush covers it). Symbolic links, files in other
 * mounts and large blobs stored as files are written on the main thread, one by one.
 */
export function replaceableOnThreads(step: Step, rootFs: RootFileSystem): boolean {
  return step.kind === 'write' && step.post?.kind === 'file' && (step.pre === null || step.pre.kind === 'file') && rootFs.holdsFolderOf(step.path)
}

/**
 * The write steps of a large rewind, run on writer threads in lanes (blob-writer/replace-lane.mts
 * ReplaceLane): each lane writes its temps, has them flushed, moves each target aside, proves
 * it (set-aside.ts, replace-file.ts) and links its temp into place, so the renames, checks and writes all run on
 * every core. Git's checkout
 * does one core's worth of such work; with the per-file checks and atomic replace a rewind
 * needs, one core was not enough to keep up with it.
 *
 * `start` checks every path (checkRelPath) and posts the jobs, in chunks the lanes take while
 * the rest are prepared, and the lanes begin writing and flushing temps; steps it cannot hand
 * over are returned for the main thread. `go` lets the lanes rename the temps into place.
 * `finished` settles when every lane has stopped, with exactly the steps replaced, and every
 * temp not renamed removed.
 */
export class ThreadedReplace {
  private readonly shared = new SharedArrayBuffer(4 * (7 + 4 * LANES))
  private readonly slots = new Int32Array(this.shared)
  private readonly layout: ReplaceLayout
  private readonly lanes: { port: MessagePort; steps: Step[]; chunk: ReplaceJob[] }[] = []
  /** Whether each folder of a target was there when the jobs were made. */
  private readonly folders = new Map<string, boolean>()
  /** Each lane's reply; null if its thread died. */
  private replies: Promise<(WriterReply | null)[]> = Promise.resolve([])
  /** The flusher's reply, once every lane replied; null if its thread died. */
  private flushes: Promise<WriterReply | null> = Promise.resolve(null)
  private feedFailure: ThreadedOutcome['failure'] = null

  constructor(private readonly ctx: ThreadedReplaceContext) {
    const lanes = Array.from({ length: LANES }, (_, lane) => ({ written: 7 + 4 * lane, covering: 8 + 4 * lane, flushed: 9 + 4 * lane, renamed: 10 + 4 * lane }))
    this.layout = { stop: 0, go: 1, events: 2, flushing: 3, flushBatch: 4, flushAsked: 5, serving: 6, lanes }
    Atomics.store(this.slots, this.layout.flushBatch, FIRST_FLUSH_BATCH)
  }

  get laneCount(): number {
    return this.layout.lanes.length
  }

  /**
   * Hand `steps` to the lanes, which start writing their temps; returns those left to the main
   * thread. Nothing at a target changes before `go`.
   */
  start(steps: Step[]): Step[] {
    const channels = this.layout.lanes.map(() => new MessageChannel())
    for (const channel of channels) this.lanes.push({ port: channel.port1, steps: [], chunk: [] })
    const { fs, writers, program, fault, flushFault } = this.ctx
    const root = fs.root.toString()
    Atomics.store(this.slots, this.layout.serving, 1)
    const flushes = writers.serveFlushes({ shared: this.shared, layout: this.layout, program, root: fs.root, ...(flushFault ? { fault: flushFault } : {}) }).catch(() => (this.stop(), null))
    const lanes = writers.replace(
      channels.map((channel, lane) => ({ lane, shared: this.shared, layout: this.layout, jobs: channel.port2, root, rootIdentity: fs.identity, ...(fault?.lane === lane ? { fault: { call: fault.call, code: fault.code } } : {}) }))
    )
    // A thread that died stops the others: the rewind is then rolled back.
    this.replies = Promise.all(lanes.map((reply) => reply.catch(() => (this.stop(), null))))
    // Once every lane is done, no flush is asked for any more: the flusher is let go. It waits
    // for `flushAsked` to change, so that is what wakes it (a notify alone could come between
    // its look at `serving` and its wait, and be lost).
    this.flushes = this.replies.then(() => {
      Atomics.store(this.slots, this.layout.serving, 0)
      Atomics.add(this.slots, this.layout.flushAsked, 1)
      Atomics.notify(this.slots, this.layout.flushAsked)
      return flushes
    })
    const leftover: Step[] = []
    let next = 0
    let contents = new Map<string, StoredContent | null>()
    for (const [index, step] of steps.entries()) {
      if (this.stopped) break
      if (index % CONTENT_WINDOW === 0) contents = this.ctx.blobs.inlineContentsOf(steps.slice(index, index + CONTENT_WINDOW).flatMap((later) => (later.post ? [later.post.hash] : [])))
      let job: ReplaceJob | null
      try {
        job = this.job(step, contents)
      } catch (error) {
        this.feedFailure = { step, error: error instanceof Error ? error : new Error(String(error)) }
        this.stop()
        break
      }
      if (job === null) {
        leftover.push(step)
        continue
      }
      const lane = this.lanes[next++ % this.lanes.length] as (typeof this.lanes)[number]
      lane.steps.push(step)
      lane.chunk.push(job)
      if (lane.chunk.length === CHUNK) this.post(lane, lane.chunk.splice(0))
    }
    for (const lane of this.lanes) {
      if (lane.chunk.length > 0) this.post(lane, lane.chunk.splice(0))
      this.post(lane, null)
    }
    return leftover
  }

  /** Let the lanes rename their temps into place: the rewind is recorded, and the steps that must come first are done. */
  go(): void {
    Atomics.store(this.slots, this.layout.go, 1)
    this.wake()
  }

  /** Stop every lane at its next file (a step on the main thread failed, say). */
  stop(): void {
    Atomics.store(this.slots, this.layout.stop, 1)
    this.wake()
  }

  /** Once every lane has stopped: what was replaced, and why they stopped if they did not finish. */
  async finished(onProgress?: (done: number, last: Step) => void): Promise<ThreadedOutcome> {
    const progress = onProgress && setInterval(() => this.reportProgress(onProgress), PROGRESS_MS)
    const replies = await this.replies.finally(() => progress && clearInterval(progress))
    const flushes = await this.flushes
    const replaced: Step[] = []
    for (const [index, lane] of this.lanes.entries()) {
      // The shared count says what a lane did even if its thread died, but for the file it was
      // replacing then: replaced if the target holds the new content.
      const renamed = Atomics.load(this.slots, this.layout.lanes[index]?.renamed ?? 0)
      replaced.push(...lane.steps.slice(0, renamed))
      const uncertain = replies[index] === null ? lane.steps[renamed] : undefined
      if (uncertain && sameVersion(await this.ctx.fs.state(uncertain.path), uncertain.post)) replaced.push(uncertain)
      // Temps not linked into place, and the second name of one a lane stopped just after linking.
      for (const step of lane.steps.slice(Math.max(renamed - 1, 0))) if (step.temp) await this.ctx.ops.unlink(step.temp).catch(() => undefined)
    }
    if (onProgress && replaced.length > 0) onProgress(replaced.length, replaced.at(-1) as Step)
    return { replaced, failure: this.feedFailure ?? this.flushFailure(flushes) ?? this.laneFailure(replies) }
  }

  /**
   * The job for `step`; null (the main thread's) if its blob is stored as a file, or if its
   * folder is not there yet: a step that must come first may remove a file in its place. The
   * lane checks the folders on the way for links, just before it creates the temp and renames.
   */
  private job(step: Step, contents: Map<string, StoredContent | null>): ReplaceJob | null {
    const post = step.post
    if (!post) return null
    const target = this.ctx.fs.join(step.path)
    if (!this.folderExists(folderOf(target))) return null
    // Not among those read together (not in the store): read alone, which says so.
    const content = contents.has(post.hash) ? (contents.get(post.hash) as StoredContent | null) : this.ctx.blobs.inlineContent(post.hash)
    if (content === null) return null
    const temp = plannedTemp(step) ?? this.ctx.fs.tempBeside(target)
    step.temp = temp
    const pre = step.pre
    const expected = pre === null ? null : { hash: pre.hash, mode: pre.mode, stamp: step.stamp ?? null }
    return { ...content, target, temp, mode: post.mode & 0o7777, expected, aside: pre === null ? null : (step.aside ?? null) }
  }

  private post(lane: (typeof this.lanes)[number], chunk: ReplaceJob[] | null): void {
    lane.port.postMessage(chunk)
    this.wake()
  }

  /** True once the lanes were told to stop, or one of them failed. */
  get stopped(): boolean {
    return Atomics.load(this.slots, this.layout.stop) !== 0
  }

  private wake(): void {
    Atomics.add(this.slots, this.layout.events, 1)
    Atomics.notify(this.slots, this.layout.events)
  }

  private reportProgress(onProgress: (done: number, last: Step) => void): void {
    let done = 0
    let last: Step | undefined
    for (const [index, lane] of this.lanes.entries()) {
      const renamed = Atomics.load(this.slots, this.layout.lanes[index]?.renamed ?? 0)
      done += renamed
      last = lane.steps[renamed - 1] ?? last
    }
    if (last) onProgress(done, last)
  }

  private folderExists(folder: Buffer): boolean {
    const key = folder.toString('latin1')
    let exists = this.folders.get(key)
    if (exists === undefined) {
      try {
        exists = lstatSync(folder).isDirectory()
      } catch {
        exists = false
      }
      this.folders.set(key, exists)
    }
    return exists
  }

  /** A failed flush (the lanes it stopped reply `stopped`), as the error apply reports. */
  private flushFailure(reply: WriterReply | null): ThreadedOutcome['failure'] {
    if (reply === null) return { step: null, error: new Error('the flusher thread stopped unexpectedly') }
    if (reply.ok) return null
    return { step: null, error: Object.assign(new Error(reply.message), reply.code === undefined ? {} : { code: reply.code }) }
  }

  /** The first lane failure that is not merely "stopped by another", as the error apply reports. */
  private laneFailure(replies: (WriterReply | null)[]): ThreadedOutcome['failure'] {
    for (const [index, reply] of replies.entries()) {
      if (reply === null) return { step: null, error: new Error('a writer thread stopped unexpectedly') }
      if (reply.ok || reply.kind === 'stopped') continue
      const step = reply.job === undefined ? null : (this.lanes[index]?.steps[reply.job] ?? null)
      return { step, error: this.laneError(reply, step) }
    }
    return null
  }

  private laneError(reply: Extract<WriterReply, { ok: false }>, step: Step | null): Error {
    const path = step ? displayPath(step.path) : 'a file'
    switch (reply.kind) {
      case 'changed':
        return new ChangedUnderfoot(`${path} changed while the rewind was running (is an agent still writing?)`)
      case 'refused':
        return new RetraceError('VALIDATION', `Refused ${path}: ${reply.message}.`)
      case 'replaced':
        return new RootReplaced(this.ctx.fs.root)
      case 'corrupt':
        return step?.post ? this.ctx.blobs.unavailable(step.post.hash, reply.message) : new Error(reply.message)
      default:
        return Object.assign(new Error(reply.message), reply.code === undefined ? {} : { code: reply.code })
    }
  }
}
