import { lstatSync } from 'node:fs'
import { RetraceError } from '../../../shared/contract'
import type { BlobStore } from '../blob-store'
import { blobWriters } from '../blob-writers'
import { fileSystemSyncProgram } from '../file-system-sync'
import type { FileVersion } from '../../store/repositories/journal'
import { explainDiskFull } from '../disk-full'
import { displayPath, splitSegments, type PathKey, type RelPath } from '../../fs/paths'
import { RootReplaced, type FsOps, type WorkspaceFs } from '../workspace-fs'
import { markIntentApplied, removeAppliedIntent, removeIntent, writeIntent } from './intent-log'
import type { PlanItem, RewindPlan } from './plan'
import { folderOf, makeFoldersDurable, RootFileSystem } from './durability'
import { asideOf } from './set-aside'
import { describeKept, freeKeepName, removeAsides, settleAsides, type Aside, type KeptCopy } from './asides'
import { removeEmptyFoldersBornAfter } from './folders'
import { asidesOf, captureCurrent, forwardAside, ChangedUnderfoot, checkBefore, revertStep, runStep, type Reverted, type Step } from './steps'
import { TempWriter } from './temp-writer'
import { LANES, replaceableOnThreads, ThreadedReplace } from './threaded-replace'

export type ConflictChoice = 'skip' | 'overwrite' | 'keep-both'

export interface ApplyContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
  dataDir: string
  rewindId: string
  forkSessionUid?: string
  /**
   * When the state the rewind restores was current (ms): a folder born later did not exist
   * then, and is removed once the rewind has emptied it (folders.ts). Absent: no folder goes.
   */
  foldersBornAfter?: number
  /**
   * Paths the user unticked in the preview: left exactly as they are and reported as skipped,
   * like a skipped conflict, whatever the plan would do to them.
   */
  excluded?: ReadonlySet<PathKey>
  /** Persist the rewind and its before/after scope (called once the intent log is durable). */
  record(steps: Step[]): void
  /** Work that goes on after the rewind returned: the removal of the files it set aside (set-aside.ts). */
  afterwards(work: Promise<void>): void
  onProgress?: (done: number, total: number, path: string) => void
  /** Test hook: runs after each completed step (crash tests kill the process here). */
  afterStep?: (index: number) => void
  /** Rewinds writing at least this many files replace them on threads (see ThreadedReplace); tests lower it. */
  batchFrom?: number
  /** Tests: fail (or kill the process) at a lane's Nth file-system call (see ThreadedReplace). */
  threadFault?: { lane: number; call: number; code: string }
  /** Tests: fail (or kill the process at) the lanes' Nth flush (see ThreadedReplace). */
  flushFault?: { flush: number; code: string }
}

/**
 * From this many files written, a rewind replaces files on writer threads, in lanes that each
 * write, check and rename their files, with a few file-system flushes making the temps durable
 * (see ThreadedReplace), if the threads are not running yet: below, one fsync per file on the
 * main thread costs less than starting them.
 */
export const BATCH_FROM_WRITES = 200

/**
 * The same when the threads are running already (a preview started them, or a rewind moments
 * before): with them running, the lanes beat one fsync per file on the main thread from a few
 * tens of files, and lose to it below.
 */
export const BATCH_FROM_WRITES_WARM = 32

/**
 * Start the threads (and the flusher's helper process) a rewind of `writes` files would use,
 * when it is planned: an app's preview is applied seconds later, and finds them ready, and a
 * plan applied at once (the CLI's --yes) gets a head start. (Starting a thread, and the helper's
 * process from a process of a few hundred megabytes, each cost tens of milliseconds.)
 */
export function warmRewindThreads(writes: number): void {
  const program = fileSystemSyncProgram()
  if (writes >= BATCH_FROM_WRITES_WARM && program !== null) blobWriters.warm(LANES, program)
}

export interface ApplyOutcome {
  steps: Step[]
  skipped: PlanItem[]
  refused: PlanItem[]
  /** Files somebody wrote to while the rewind had them set aside: kept beside their paths and saved (R33). */
  keptDuring: KeptCopy[]
}

/**
 * Apply a plan: conflicts resolved by the user's choices, the current state of every file
 * about to change captured first, an intent log written durably, then each file replaced
 * atomically after re-checking it. On the main thread, kept copies and deletes come first;
 * then the writes, most of a large rewind's on writer threads (ThreadedReplace), the rest here
 * with their temp files written ahead (TempWriter). On any failure every step already taken is
 * reverted, so the workspace ends wholly before or wholly after.
 */
export async function applyPlan(plan: RewindPlan, choices: Map<PathKey, ConflictChoice>, defaultChoice: ConflictChoice, ctx: ApplyContext): Promise<ApplyOutcome> {
  ctx.fs.checkRoot() // the folder the plan looked at, still at its path
  const { steps, skipped, refused } = await buildSteps(plan.items, choices, defaultChoice, ctx.fs, ctx.excluded)
  const program = fileSystemSyncProgram()
  const batchFrom = ctx.batchFrom ?? (blobWriters.ready(LANES) ? BATCH_FROM_WRITES_WARM : BATCH_FROM_WRITES)
  const batched = steps.filter((step) => step.kind === 'write').length >= batchFrom && program !== null
  const rootFs = batched ? new RootFileSystem(ctx.fs.root) : null
  const threaded = rootFs && program ? new ThreadedReplace({ fs: ctx.fs, blobs: ctx.blobs, ops: ctx.ops, writers: blobWriters, program, rootFs, ...(ctx.threadFault ? { fault: ctx.threadFault } : {}), ...(ctx.flushFault ? { flushFault: ctx.flushFault } : {}) }) : null
  const onThreads = rootFs ? steps.filter((step) => replaceableOnThreads(step, rootFs)) : []
  if (threaded && program) blobWriters.warm(threaded.laneCount, program) // if the plan did not start them, they start while the state before is captured and the intent written
  // Kept files are captured too: the rewind's journal entry for the move names their content.
  // Usually the store already has it (the agent's last write): then there is nothing to read.
  const notStored = ctx.blobs.absentOf(steps.flatMap((step) => (step.pre ? [step.pre.hash] : [])))
  for (const step of steps) {
    if (step.pre === null || !notStored.has(step.pre.hash)) continue
    const captured = await captureCurrent(ctx.fs, ctx.blobs, step.path)
    if (captured?.hash !== step.pre.hash) throw new RetraceError('CONFLICT', `${displayPath(step.path)} changed while the rewind was being prepared; review the preview again.`)
  }
  // Where each replaced or deleted file is moved aside (replace-file.ts): named now, so the
  // intent log records it and recovery finds a file a crash left there.
  for (const step of steps) if (step.kind === 'write' || step.kind === 'delete') step.aside = asideOf(ctx.fs.tempBeside(ctx.fs.join(step.path)))
  const startedAt = Date.now() // before the intent: every folder the rewind makes is born after it
  writeIntent(ctx.dataDir, { version: 1, rewindId: ctx.rewindId, root: ctx.fs.root.toString('base64'), rootIdentity: { dev: String(ctx.fs.identity.dev), ino: String(ctx.fs.identity.ino) }, startedAt, steps, ...(ctx.forkSessionUid ? { forkSessionUid: ctx.forkSessionUid } : {}) })
  // The lanes write temps while the rewind is recorded and the first steps run; they change
  // no target before `go`. Steps they cannot take join the main thread's.
  const leftover = new Set(threaded ? threaded.start(onThreads) : [])
  const taken = new Set(onThreads.filter((step) => !leftover.has(step)))
  const onMain = steps.filter((step) => !taken.has(step))

  let temps: TempWriter | null = null
  const settled: { kept: KeptCopy[]; unchanged: Aside[] } = { kept: [], unchanged: [] }
  const done: Step[] = []
  const folders = new Map<string, Buffer>()
  let failedAt: Step | null = null
  const runOnMain = async (step: Step): Promise<void> => {
    failedAt = step
    await temps?.ready(step)
    const absolute = ctx.fs.resolve(step.path) // once for the check and the change: no folder on the way is a link
    await checkBefore(step, ctx.fs, absolute)
    done.push(step)
    await runStep(step, ctx.fs, ctx.blobs, ctx.ops, absolute)
    ctx.fs.checkRoot() // and after: a root swapped during the step's calls stops the rewind here
    const folder = folderOf(absolute)
    folders.set(folder.toString('latin1'), folder)
    ctx.onProgress?.(done.length, steps.length, displayPath(step.path))
    ctx.afterStep?.(steps.indexOf(step))
  }
  const runMainThreadSteps = async (): Promise<void> => {
    if (threaded?.stopped) return // the lanes could not take a step (a path or blob refused): reported below
    ctx.record(steps) // before any change: a rewind interrupted at any point has its row
    temps = new TempWriter(onMain, ctx)
    // Kept copies and deletes first: a write may need the folder where a file was.
    const firstWrite = onMain.findIndex((step) => step.kind === 'write' || step.kind === 'mode')
    const before = firstWrite < 0 ? onMain : onMain.slice(0, firstWrite)
    for (const step of before) await runOnMain(step)
    threaded?.go()
    for (const step of onMain.slice(before.length)) await runOnMain(step)
  }
  try {
    let failedOnMain: { error: unknown } | null = null
    try {
      await runMainThreadSteps()
    } catch (error) {
      failedOnMain = { error }
      threaded?.stop()
    }
    const outcome = threaded ? await threaded.finished((count, last) => ctx.onProgress?.(done.length + count, steps.length, displayPath(last.path))) : null
    for (const step of outcome?.replaced ?? []) {
      done.push(step)
      const folder = folderOf(step.temp as Buffer) // the temp was beside the file
      folders.set(folder.toString('latin1'), folder)
    }
    if (failedOnMain) throw failedOnMain.error
    if (outcome?.failure) {
      failedAt = outcome.failure.step
      throw outcome.failure.error
    }
    failedAt = null
    // Written to while set aside, or still open for writing: kept, visible, before the rewind says it is done.
    Object.assign(settled, await settleAsides(asidesOf(done, false), ctx))
    for (const copy of settled.kept) {
      const folder = folderOf(ctx.fs.join(copy.keptAs))
      folders.set(folder.toString('latin1'), folder)
    }
    // Removed in the background only in a batched rewind (set-aside.ts), and never a deleted
    // file's: its folder may be one to remove. A small rewind removes them here, as it goes.
    const deleted = new Set(done.filter((step) => step.kind === 'delete').map((step) => step.aside))
    const removeNow = (aside: Aside) => rootFs === null || deleted.has(aside.aside)
    const [now, later] = [settled.unchanged.filter(removeNow), settled.unchanged.filter((aside) => !removeNow(aside))]
    const removedNow = await removeAsides(now, ctx)
    if (!removedNow.complete) throw removedNow.error
    settled.kept.push(...removedNow.kept)
    settled.unchanged = later
    if (ctx.foldersBornAfter !== undefined) {
      const deleted = steps.flatMap((step) => (step.kind === 'delete' ? [step.path] : []))
      await removeEmptyFoldersBornAfter(ctx.fs, ctx.ops, deleted, ctx.foldersBornAfter)
    }
    // Each folder's renames made durable once, not once per file. Until this is done the intent
    // log stays open, so a crash before it is rolled back like any other interrupted rewind.
    await makeFoldersDurable([...folders.values()], ctx.ops, rootFs)
  } catch (caught) {
    await (temps as TempWriter | null)?.stop() // no temp file is still being written when the unused ones are removed
    // A swapped root explains whatever failed after it (a temp not found through the new path, say).
    const replacedRoot = caught instanceof RootReplaced || !ctx.fs.rootIsSame()
    const error = replacedRoot && !(caught instanceof RootReplaced) ? new RootReplaced(ctx.fs.root) : caught
    const replaced = new Set(done)
    for (const step of steps) if (step.temp && !replaced.has(step)) await ctx.ops.unlink(step.temp).catch(() => undefined)
    // Through a swapped root a rollback would write in the other folder: the intent stays open
    // instead, and recovery rolls the rewind back once the folder is back at its path.
    // Also each step a lane stopped between moving its file aside and putting the new one in place.
    const started = new Set(done)
    const reverting = steps.filter((step) => started.has(step) || isSetAside(step))
    const { complete, left } = replacedRoot ? { complete: false, left: [] } : await rollBack(reverting, ctx, startedAt)
    // The files set aside are needed by recovery until the rollback is complete; then each is
    // removed, or kept if somebody wrote to it meanwhile.
    const afterRollback = complete ? await settleAsides(asidesOf(steps, true), ctx) : { kept: [], unchanged: [] }
    if (complete) {
      await removeAsides(afterRollback.unchanged, ctx)
      removeIntent(ctx.dataDir, ctx.rewindId)
    }
    const kept = afterRollback.kept
    const where = failedAt ? ` at ${displayPath(failedAt.path)}` : ''
    const explained = explainDiskFull(error, failedAt ? folderOf(ctx.fs.join(failedAt.path)).toString() : ctx.fs.root.toString())
    const why = explained instanceof Error ? explained.message : String(explained)
    const changedMeanwhile = (left.length === 0 ? '' : ` ${left.map(displayPath).join(', ')} changed while the rewind ran, and ${left.length === 1 ? 'was' : 'were'} left as found.`) + describeKept(kept)
    const state = replacedRoot
      ? 'The files it had changed are put back once that folder is back at its path; Retrace tries at every start and every preview.'
      : complete
        ? `Every file was put back as it was before the rewind.${changedMeanwhile}`
        : 'Some files could not be put back yet; Retrace will finish restoring them the next time it starts.'
    throw new RetraceError(error instanceof ChangedUnderfoot || error instanceof RootReplaced ? 'CONFLICT' : 'IO_ERROR', `The rewind stopped${where}: ${why}. ${state}`)
  }
  if (settled.unchanged.length === 0) {
    removeIntent(ctx.dataDir, ctx.rewindId)
  } else {
    // Complete. The files set aside are removed after the rewind returns; until then its log
    // says so, and a crash only sweeps them.
    markIntentApplied(ctx.dataDir, ctx.rewindId)
    ctx.afterwards(removeAfterwards(settled.unchanged, ctx))
  }
  return { steps, skipped, refused, keptDuring: settled.kept }
}

/**
 * The files set aside removed (set-aside.ts: off the rewind's time), each looked at once more
 * first, then the applied log. Never fails: whatever is left, the next start sweeps.
 */
async function removeAfterwards(asides: Aside[], ctx: ApplyContext): Promise<void> {
  try {
    if (!(await removeAsides(asides, ctx)).complete) return
    removeAppliedIntent(ctx.dataDir, ctx.rewindId)
  } catch {
    // Left for the next start, which finds nothing more to remove.
  }
}

/** A step whose file is moved aside (replace-file.ts) right now. */
function isSetAside(step: Step): boolean {
  const aside = forwardAside(step)
  return aside !== null && lstatSync(aside, { throwIfNoEntry: false }) !== undefined
}

/**
 * Revert completed steps, newest first, and remove the folders the rewind made. Not complete if
 * any step could not be reverted (recovery will retry); `left`: paths somebody changed while the
 * rewind ran, not overwritten.
 */
async function rollBack(done: Step[], ctx: ApplyContext, startedAt: number): Promise<{ complete: boolean; left: RelPath[] }> {
  let complete = true
  const left: RelPath[] = []
  for (const step of [...done].reverse()) {
    try {
      const reverted: Reverted = await revertStep(step, ctx.fs, ctx.blobs, ctx.ops)
      if (reverted.outcome === 'left') left.push(reverted.path)
    } catch {
      complete = false
    }
  }
  await removeEmptyFoldersBornAfter(ctx.fs, ctx.ops, done.map((step) => step.path), startedAt)
  return { complete, left }
}

async function buildSteps(items: PlanItem[], choices: Map<PathKey, ConflictChoice>, defaultChoice: ConflictChoice, fs: WorkspaceFs, excluded?: ReadonlySet<PathKey>) {
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
    const choice = excluded?.has(item.key) ? 'skip' : item.conflict ? (choices.get(item.key) ?? defaultChoice) : 'overwrite'
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
