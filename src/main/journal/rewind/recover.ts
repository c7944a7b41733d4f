import { readdirSync } from 'node:fs'
import type { RecoveryConflict } from '../../store/repositories/rewinds'
import type { BlobStore } from '../blob-store'
import type { RelPath } from '../../fs/paths'
import { keyOf, type PathKey } from '../../fs/paths'
import type { FsOps } from '../workspace-fs'
import type { DiskState } from '../../store/repositories/journal'
import { TEMP_PREFIX } from '../shared-constants.mts'
import { RootReplaced, WorkspaceFs } from '../workspace-fs'
import { currentOwner, isOwnerAlive } from '../process-owner'
import { removeEmptyFoldersBornAfter } from './folders'
import { appliedIntents, openIntents, removeAppliedIntent, removeIntent, removeStaleIntentTemps, type Intent } from './intent-log'
import { asidesOf, captureCurrent, revertStep, type Step } from './steps'
import { removeAsides, settleAsides, type Aside, type AsideContext, type KeptCopy } from './asides'

export interface RecoveryReport {
  rolledBack: string[]
  /**
   * Per rolled-back rewind, the paths it found changed since the interruption (somebody's
   * newer work): left as they were, saved to the store first.
   */
  conflicts: { rewindId: string; root: Buffer; conflicts: RecoveryConflict[] }[]
  /** Complete rewinds whose set-aside files (set-aside.ts) the process left behind, now removed. */
  swept: string[]
  /** Of those, files somebody wrote to while they were set aside: kept beside their paths, and saved (asides.ts). */
  kept: { rewindId: string; root: Buffer; kept: KeptCopy[] }[]
  failed: { rewindId: string; root: Buffer; reason: string }[]
  /** Rewinds another live process is applying right now: not ours to touch. */
  runningElsewhere: { rewindId: string; root: Buffer; pid: number }[]
  unreadable: string[]
}

export interface RecoveryOptions {
  /** Only intents of this workspace root. */
  root?: Buffer
  /** Rewinds this process is applying right now (never recovered under it). */
  running?: ReadonlySet<string>
  /** The rewind is rolled back: record it and what recovery left as it found. */
  finish(intent: Intent, conflicts: RecoveryConflict[]): void
}

/**
 * Every rewind whose intent log is still open, and whose process is gone (or is this one, no
 * longer applying it), was interrupted: put back each file the rewind changed, but only where
 * the disk still shows exactly what the rewind wrote there. Anything else is somebody's work
 * after the interruption (an edit, a delete, a new file, hours later): saved to the store,
 * left in place, and reported, never overwritten.
 */
export async function recoverInterruptedRewinds(dataDir: string, blobs: BlobStore, ops: FsOps, options: RecoveryOptions): Promise<RecoveryReport> {
  removeStaleIntentTemps(dataDir)
  const { intents, unreadable } = openIntents(dataDir)
  const applied = appliedIntents(dataDir)
  const report: RecoveryReport = { rolledBack: [], conflicts: [], swept: [], kept: [], failed: [], runningElsewhere: [], unreadable: [...unreadable, ...applied.unreadable] }
  const inScope = (intent: Intent) => options.root === undefined || rootOf(intent).equals(options.root)
  const fail = (intent: Intent, error: unknown) => report.failed.push({ rewindId: intent.rewindId, root: rootOf(intent), reason: error instanceof Error ? error.message : String(error) })
  for (const intent of intents.filter(inScope)) {
    if (options.running?.has(intent.rewindId)) continue
    if (!ownerGone(intent)) {
      report.runningElsewhere.push({ rewindId: intent.rewindId, root: rootOf(intent), pid: intent.pid ?? 0 })
      continue
    }
    try {
      const conflicts = await revertIntent(intent, blobs, ops)
      options.finish(intent, conflicts)
      removeIntent(dataDir, intent.rewindId)
      report.rolledBack.push(intent.rewindId)
      if (conflicts.length > 0) report.conflicts.push({ rewindId: intent.rewindId, root: rootOf(intent), conflicts })
    } catch (error) {
      fail(intent, rootStillThere(intent) ? error : new RootReplaced(rootOf(intent))) // a swapped root explains whatever failed after it
    }
  }
  // Complete: nothing to put back, only the files set aside to remove.
  for (const intent of applied.intents.filter((intent) => inScope(intent) && intent.pid !== undefined && !isOwnerAlive(ownerOf(intent)))) {
    try {
      const fs = workspaceOf(intent)
      const kept = await settleAndRemove(asidesOf(intent.steps, false), { fs, blobs, ops })
      if (kept.length > 0) report.kept.push({ rewindId: intent.rewindId, root: rootOf(intent), kept })
      await sweepTempFiles(fs, ops, intent)
      removeAppliedIntent(dataDir, intent.rewindId)
      report.swept.push(intent.rewindId)
    } catch (error) {
      fail(intent, error)
    }
  }
  return report
}

const ownerOf = (intent: Intent) => ({ pid: intent.pid ?? 0, ...(intent.started === undefined ? {} : { started: intent.started }) })

/** Its process has ended (a pid reused by another process does not count), or it is this one. */
function ownerGone(intent: Intent): boolean {
  if (intent.pid === undefined) return true
  const self = currentOwner()
  if (intent.pid === self.pid && (intent.started === undefined || intent.started === self.started)) return true // the caller left out what this process is still applying
  return !isOwnerAlive(ownerOf(intent))
}

const rootOf = (intent: Intent): Buffer => Buffer.from(intent.root, 'base64')

function rootStillThere(intent: Intent): boolean {
  try {
    return workspaceOf(intent).rootIsSame()
  } catch {
    return false
  }
}
/** The intent's workspace, refused (RootReplaced) unless its path still leads to the folder the rewind began in. */
const workspaceOf = (intent: Intent): WorkspaceFs =>
  WorkspaceFs.recorded(rootOf(intent), intent.rootIdentity ? { dev: BigInt(intent.rootIdentity.dev), ino: BigInt(intent.rootIdentity.ino) } : undefined)

/**
 * Steps reverted newest first. A path left as found is saved to the store at once, before
 * anything else happens, and reported with the version the rewind had replaced (its first
 * step's `pre`: a kept copy's move comes before the write at the same path).
 */
async function revertIntent(intent: Intent, blobs: BlobStore, ops: FsOps): Promise<RecoveryConflict[]> {
  const fs = workspaceOf(intent)
  const conflicts = new Map<PathKey, RecoveryConflict>()
  for (const step of [...intent.steps].reverse()) {
    const reverted = await revertStep(step, fs, blobs, ops)
    if (reverted.outcome !== 'left') continue
    const key = keyOf(reverted.path)
    const known = conflicts.get(key)
    if (known) known.before = beforeOf(step, reverted.path)
    else conflicts.set(key, { path: reverted.path, ...(await saveFound(fs, blobs, reverted.path, reverted.found)), before: beforeOf(step, reverted.path) })
  }
  // Files set aside that somebody wrote to meanwhile (an open descriptor) are kept beside their paths, and listed.
  for (const copy of await settleAndRemove(asidesOf(intent.steps, true), { fs, blobs, ops })) {
    conflicts.set(keyOf(copy.keptAs), { path: copy.keptAs, found: copy.saved, saved: copy.saved !== null, before: null })
  }
  await sweepTempFiles(fs, ops, intent)
  if (intent.startedAt !== undefined) await removeEmptyFoldersBornAfter(fs, ops, intent.steps.map((step) => step.path), intent.startedAt)
  return [...conflicts.values()]
}

/** Files set aside: those unchanged removed, the others kept (asides.ts). */
async function settleAndRemove(asides: Aside[], ctx: AsideContext): Promise<KeptCopy[]> {
  const { kept, unchanged } = await settleAsides(asides, ctx)
  const removed = await removeAsides(unchanged, ctx)
  return [...kept, ...removed.kept]
}

/** What was at `path` before the rewind: the step's `pre`, unless `path` is where it kept a copy (nothing was there). */
const beforeOf = (step: Step, path: RelPath) => (step.keptAs?.equals(path) ? null : step.pre)

/** The found file or link, into the store; a file still being written is tried once more, then reported unsaved (it stays on disk). */
async function saveFound(fs: WorkspaceFs, blobs: BlobStore, path: RelPath, found: DiskState): Promise<{ found: DiskState; saved: boolean }> {
  if (found === null || found.kind === 'directory' || found.kind === 'other') return { found, saved: false }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const captured = await captureCurrent(fs, blobs, path)
      return captured === null ? { found: null, saved: false } : { found: captured, saved: true }
    } catch {
      // changed while it was read: once more
    }
  }
  return { found, saved: false }
}

/**
 * A crash between writing a temp file and renaming it leaves `.retrace-tmp-*` beside the target;
 * so does one before a set-aside file (set-aside.ts) was removed.
 */
async function sweepTempFiles(fs: WorkspaceFs, ops: FsOps, intent: Intent): Promise<void> {
  const folders = new Set<string>()
  for (const step of intent.steps) {
    const absolute = fs.resolve(step.path)
    folders.add(absolute.subarray(0, absolute.lastIndexOf(0x2f)).toString('latin1'))
  }
  for (const folder of folders) {
    const path = Buffer.from(folder, 'latin1')
    let names: Buffer[]
    try {
      names = readdirSync(path, { encoding: 'buffer' })
    } catch {
      continue
    }
    for (const name of names) {
      if (name.toString('latin1').startsWith(TEMP_PREFIX)) {
        await ops.unlink(Buffer.concat([path, Buffer.from('/'), name])).catch(() => undefined)
      }
    }
  }
}
