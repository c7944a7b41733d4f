import { open } from 'node:fs/promises'
import { RetraceError } from '../../../shared/contract'
import type { BlobStore } from '../blob-store'
import type { FileVersion } from '../journal-repository'
import { displayPath, joinRel, splitSegments, type PathKey, type RelPath } from '../paths'
import type { FsOps, WorkspaceFs } from '../workspace-fs'
import { removeIntent, writeIntent } from './intent-log'
import type { PlanItem, RewindPlan } from './plan'
import { captureCurrent, ChangedUnderfoot, checkBefore, prepareTemp, revertStep, runStep, type Step } from './steps'

export type ConflictChoice = 'skip' | 'overwrite' | 'keep-both'

export interface ApplyContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
  dataDir: string
  rewindId: string
  forkSessionUid?: string
  /** Persist the rewind and its before/after scope (called once the intent log is durable). */
  record(steps: Step[]): void
  onProgress?: (done: number, total: number, path: string) => void
  /** Test hook: runs after each completed step (crash tests kill the process here). */
  afterStep?: (index: number) => void
}

export interface ApplyOutcome {
  steps: Step[]
  skipped: PlanItem[]
  refused: PlanItem[]
}

/**
 * Apply a plan: conflicts resolved by the user's choices, the current state of every file
 * about to change captured first, an intent log written durably, then each file replaced
 * atomically after re-checking it. New content is written to fsynced temp files ahead of the
 * steps (`TempWriter`), so the fsyncs overlap each other and the renames. On any failure every
 * step already taken is reverted, so the workspace ends wholly before or wholly after.
 */
export async function applyPlan(plan: RewindPlan, choices: Map<PathKey, ConflictChoice>, defaultChoice: ConflictChoice, ctx: ApplyContext): Promise<ApplyOutcome> {
  const { steps, skipped, refused } = await buildSteps(plan.items, choices, defaultChoice, ctx.fs)
  for (const step of steps) {
    // Kept files are captured too: the rewind's journal entry for the move names their content.
    // Usually the store already has it (the agent's last write): then there is nothing to read.
    if (step.pre === null || ctx.blobs.has(step.pre.hash)) continue
    const captured = await captureCurrent(ctx.fs, ctx.blobs, step.path)
    if (captured?.hash !== step.pre.hash) throw new RetraceError('CONFLICT', `${displayPath(step.path)} changed while the rewind was being prepared; review the preview again.`)
  }
  writeIntent(ctx.dataDir, { version: 1, rewindId: ctx.rewindId, root: ctx.fs.root.toString('base64'), steps, ...(ctx.forkSessionUid ? { forkSessionUid: ctx.forkSessionUid } : {}) })
  ctx.record(steps)
  const temps = new TempWriter(steps, ctx)

  const done: Step[] = []
  const folders = new Set<string>()
  try {
    for (const [index, step] of steps.entries()) {
      await temps.ready(step)
      const absolute = ctx.fs.resolve(step.path) // once for the check and the change: no folder on the way is a link
      await checkBefore(step, ctx.fs, absolute)
      done.push(step)
      await runStep(step, ctx.fs, ctx.blobs, ctx.ops, absolute)
      folders.add(absolute.subarray(0, absolute.lastIndexOf(0x2f)).toString('latin1'))
      ctx.onProgress?.(index + 1, steps.length, displayPath(step.path))
      ctx.afterStep?.(index)
    }
    // Each folder's renames made durable once, not once per file. Until this is done the intent
    // log stays open, so a crash before it is rolled back like any other interrupted rewind.
    await fsyncFolders(folders)
  } catch (error) {
    const failedAt = done.at(-1)
    await temps.stop() // no temp file is still being written when the unused ones are removed
    for (const step of steps) if (step.temp && !done.includes(step)) await ctx.ops.unlink(step.temp).catch(() => undefined)
    const rolledBack = await rollBack(done, ctx)
    if (rolledBack) removeIntent(ctx.dataDir, ctx.rewindId)
    const where = failedAt ? ` at ${displayPath(failedAt.path)}` : ''
    const why = error instanceof Error ? error.message : String(error)
    const state = rolledBack
      ? 'Every file was put back as it was before the rewind.'
      : 'Some files could not be put back yet; Retrace will finish restoring them the next time it starts.'
    throw new RetraceError(error instanceof ChangedUnderfoot ? 'CONFLICT' : 'IO_ERROR', `The rewind stopped${where}: ${why}. ${state}`)
  }
  removeIntent(ctx.dataDir, ctx.rewindId)
  return { steps, skipped, refused }
}

/** Temp files being written at once. Each is an open, a write and an fsync: more in flight lets the file system commit several fsyncs together. */
const PREPARE_CONCURRENCY = 16

/**
 * Writes the new content of every file to its temp file (verified against its hash, fsynced),
 * several at a time and in step order, while the steps run behind it: one after another the
 * fsyncs dominate a large rewind. Nothing at any target path changes here. A temp that cannot
 * be prepared (its folder appears only after an earlier step, say) is left to its step, which
 * writes it itself and reports any error in order; if the process dies, recovery sweeps the temps.
 */
class TempWriter {
  private readonly prepared = new Map<Step, Promise<void>>()
  private readonly writers: Promise<void>[]
  private stopped = false

  constructor(steps: Step[], ctx: ApplyContext) {
    const writes = steps.filter((step) => step.kind === 'write' && step.post !== null)
    const finished = new Map<Step, () => void>()
    for (const step of writes) this.prepared.set(step, new Promise((resolve) => finished.set(step, resolve)))
    let next = 0
    const writer = async (): Promise<void> => {
      for (let step = writes[next++]; step && !this.stopped; step = writes[next++]) {
        try {
          if (step.post) step.temp = await prepareTemp(ctx.fs, ctx.blobs, ctx.ops, step.path, step.post)
        } catch {
          // Written (and its error reported) in order, when its step runs.
        } finally {
          finished.get(step)?.()
        }
      }
    }
    this.writers = Array.from({ length: Math.min(PREPARE_CONCURRENCY, writes.length) }, writer)
  }

  /** Settles once `step`'s temp file is written, or has failed (never rejects). */
  ready(step: Step): Promise<void> {
    return this.prepared.get(step) ?? Promise.resolve()
  }

  /** Start no more temp files, and wait for those being written. */
  async stop(): Promise<void> {
    this.stopped = true
    await Promise.all(this.writers)
  }
}

/** Revert completed steps, newest first. False if any could not be reverted (recovery will retry). */
async function rollBack(done: Step[], ctx: ApplyContext): Promise<boolean> {
  let complete = true
  for (const step of [...done].reverse()) {
    try {
      await revertStep(step, ctx.fs, ctx.blobs, ctx.ops)
    } catch {
      complete = false
    }
  }
  return complete
}

async function buildSteps(items: PlanItem[], choices: Map<PathKey, ConflictChoice>, defaultChoice: ConflictChoice, fs: WorkspaceFs) {
  const keeps: Step[] = []
  const deletes: Step[] = []
  const writes: Step[] = []
  const modes: Step[] = []
  const skipped: PlanItem[] = []
  const refused: PlanItem[] = []
  for (const item of items) {
    if (item.refused) {
      refused.push(item)
      continue
    }
    if (item.action === 'none') continue
    const choice = item.conflict ? (choices.get(item.key) ?? defaultChoice) : 'overwrite'
    if (choice === 'skip') {
      skipped.push(item)
      continue
    }
    let pre = item.current as FileVersion | null
    let stamp = item.stamp
    if (choice === 'keep-both' && pre !== null) {
      keeps.push({ kind: 'keep', path: item.path, pre, post: null, keptAs: await freeKeepName(fs, item.path), stamp })
      pre = null
      stamp = null
    }
    const step: Step = { kind: item.action === 'delete' ? 'delete' : item.action === 'mode' ? 'mode' : 'write', path: item.path, pre, post: item.target, stamp }
    if (step.kind === 'delete') {
      if (pre !== null) deletes.push(step)
    } else if (step.kind === 'mode') modes.push(step)
    else writes.push(step)
  }
  const depth = (step: Step) => splitSegments(step.path).length
  deletes.sort((a, b) => depth(b) - depth(a))
  writes.sort((a, b) => depth(a) - depth(b))
  return { steps: [...keeps, ...deletes, ...writes, ...modes], skipped, refused }
}

/** `name.retrace-kept`, or `name.retrace-kept-2`, … : the first name nobody uses. */
async function freeKeepName(fs: WorkspaceFs, path: RelPath): Promise<RelPath> {
  const slash = path.lastIndexOf(0x2f)
  const parent = path.subarray(0, Math.max(slash, 0))
  const name = path.subarray(slash + 1)
  for (let n = 1; n < 1000; n++) {
    const candidate = joinRel(parent, Buffer.concat([name, Buffer.from(n === 1 ? '.retrace-kept' : `.retrace-kept-${n}`)]))
    if ((await fs.state(candidate)) === null) return candidate
  }
  throw new RetraceError('CONFLICT', `No free name to keep a copy of ${displayPath(path)}.`)
}

/** Folders fsynced at once: where one journal commit covers many renames, the others return at once. */
const FOLDER_SYNC_CONCURRENCY = 16

/** fsync every folder (concurrently: one after another they cost a disk flush each). */
async function fsyncFolders(folders: Set<string>): Promise<void> {
  const queue = [...folders]
  const syncer = async (): Promise<void> => {
    for (let folder = queue.pop(); folder !== undefined; folder = queue.pop()) await fsyncFolder(Buffer.from(folder, 'latin1'))
  }
  await Promise.all(Array.from({ length: Math.min(FOLDER_SYNC_CONCURRENCY, queue.length) }, syncer))
}

/** A folder a rewind emptied and removed needs no fsync. */
async function fsyncFolder(folder: Buffer): Promise<void> {
  let handle
  try {
    handle = await open(folder, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
