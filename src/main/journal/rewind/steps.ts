import { lstatSync, readlinkSync } from 'node:fs'
import type { BlobStore, WriteOptions } from '../blob-store'
import { fsyncPath } from '../durable-file'
import type { DiskState, FileVersion } from '../../store/repositories/journal'
import { displayPath, type RelPath } from '../../fs/paths'
import { hasStamp, RootReplaced, sameVersion, type FsOps, type StatStamp, type WorkspaceFs } from '../workspace-fs'
import type { Aside } from './asides'
import { folderOf } from './durability'
import { moveAside, placeNoReplace } from './replace-file'
import { tempOfAside } from './set-aside'

/**
 * One file operation of a rewind, with the state before (`pre`) and after (`post`). `keep`
 * moves the user's conflicting file aside to `keptAs` before the path is overwritten.
 */
export interface Step {
  kind: 'keep' | 'delete' | 'write' | 'mode'
  path: RelPath
  pre: FileVersion | null
  post: FileVersion | null
  keptAs?: RelPath
  /** A prepared temp file holding `post` (written, verified, fsynced), renamed into place when the step runs. */
  temp?: Buffer
  /**
   * Where the file this step replaces or deletes is moved aside, beside it (replace-file.ts), and
   * with `-undo` added, where a rollback moves what the step wrote. Named before the intent log
   * is written, which records it: recovery finds a file set aside there after a crash.
   */
  aside?: Buffer
  /** How the plan found `pre` on disk, when that proves it without hashing again (never in the intent log). */
  stamp?: StatStamp | null
}

/** Thrown when a file is not what the plan saw just before Retrace would touch it. */
export class ChangedUnderfoot extends Error {}

/**
 * Check, just before the step replaces it, that the disk still holds `step.pre` (and that a
 * kept copy's name is still free). Where the plan left a stamp, an identical lstat proves it;
 * otherwise, or if anything in the stamp moved, the file is hashed again. `absolute` is
 * `fs.resolve(step.path)`, just taken by the caller.
 */
export async function checkBefore(step: Step, fs: WorkspaceFs, absolute: Buffer): Promise<void> {
  if (forwardAside(step) && step.kind !== 'keep') return // proven once moved aside, where no write can slip in after the check (runStep)
  if (!(step.pre && step.stamp && hasStamp(absolute, step.stamp))) await expectState(fs, step.path, step.pre)
  if (step.kind === 'keep' && step.keptAs) await expectState(fs, step.keptAs, null)
}

/** Where the file a step replaces or deletes goes aside; null if nothing was there (or the step has no aside: an older intent log). */
export const forwardAside = (step: Step): Buffer | null => (step.pre && step.aside && (step.kind === 'write' || step.kind === 'delete') ? step.aside : null)

/** Where a rollback moves what a step wrote. */
export const undoAside = (step: Step): Buffer | null => (step.aside ? Buffer.concat([step.aside, UNDO]) : null)

const UNDO = Buffer.from('-undo')

/** The name a write step's temp file is made under (set-aside.ts tempOfAside), when it has an aside. */
export const plannedTemp = (step: Step): Buffer | undefined => (step.kind === 'write' && step.aside ? tempOfAside(step.aside) : undefined)

const changedMessage = (path: RelPath) => `${displayPath(path)} changed while the rewind was running (is an agent still writing?)`

export async function expectState(fs: WorkspaceFs, path: RelPath, expected: FileVersion | null): Promise<void> {
  const state = await fs.state(path)
  if (!sameVersion(state, expected)) {
    throw new ChangedUnderfoot(`${displayPath(path)} changed while the rewind was running (is an agent still writing?)`)
  }
}

/**
 * Write `version` to a fresh temp file beside `path` (content verified against its hash,
 * fsynced unless `options.durable` is false) and return the temp's path; nothing at `path`
 * changes yet.
 */
export async function prepareTemp(fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, path: RelPath, version: FileVersion, options?: WriteOptions, named?: Buffer): Promise<Buffer> {
  const absolute = fs.resolve(path)
  await ops.mkdir(absolute.subarray(0, absolute.lastIndexOf(0x2f)))
  const temp = named ?? fs.tempBeside(absolute)
  try {
    if (version.kind === 'symlink') {
      await ops.symlink(blobs.read(version.hash), temp)
    } else {
      await ops.writeBlob(blobs, version.hash, temp, version.mode & 0o7777, options) // with exactly this mode
    }
    if (!fs.rootIsSame()) throw new RootReplaced(fs.root) // made through a swapped root: removed below, leaving the other folder as it was
    return temp
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined)
    throw error
  }
}

/** Rename a prepared temp file over `absolute`; on failure the temp is removed. */
async function renameIntoPlace(ops: FsOps, temp: Buffer, absolute: Buffer): Promise<void> {
  try {
    await ops.rename(temp, absolute)
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined)
    throw error
  }
}

/**
 * Run one step forward. The caller has checked the disk holds `step.pre`, and resolved
 * `absolute` from `step.path` for that check. The folder's fsync is the caller's too: once
 * per folder, after all steps. A delete leaves the folder it empties: the caller removes the
 * folders that may go once every step ran (folders.ts).
 */
export async function runStep(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, absolute: Buffer): Promise<void> {
  switch (step.kind) {
    case 'keep':
      if (step.keptAs && !(await placeNoReplace(ops, absolute, fs.resolve(step.keptAs), step.pre?.kind === 'symlink'))) throw new ChangedUnderfoot(changedMessage(step.keptAs))
      return
    case 'delete':
      if (forwardAside(step)) await setAside(step, ops, absolute)
      else await ops.unlink(absolute)
      return
    case 'mode':
      if (step.post) await ops.chmod(absolute, step.post.mode & 0o7777)
      return
    case 'write': {
      if (!step.post) return
      const temp = step.temp ?? (await prepareTemp(fs, blobs, ops, step.path, step.post, undefined, plannedTemp(step)))
      try {
        const aside = forwardAside(step)
        if (aside) await setAside(step, ops, absolute)
        else if (step.pre !== null) return await renameIntoPlace(ops, temp, absolute) // no aside named for it (a caller's own step): replaced by a rename, as before
        let placed: boolean
        try {
          placed = await placeNoReplace(ops, temp, absolute, step.post.kind === 'symlink')
        } catch (error) {
          if (aside) await placeNoReplace(ops, aside, absolute, step.pre?.kind === 'symlink').catch(() => false) // nothing of the rewind's took the path: what was there goes back
          throw error
        }
        if (!placed) throw new ChangedUnderfoot(changedMessage(step.path)) // created meanwhile: never replaced
      } catch (error) {
        await ops.unlink(temp).catch(() => undefined)
        throw error
      }
    }
  }
}

/**
 * Move the file a step replaces or deletes aside and prove it is `step.pre`; if it is not
 * (written to since the check), it goes back to its path (or, if the path was filled
 * meanwhile, stays aside, to be kept at the end: asidesOf) and the step fails.
 */
async function setAside(step: Step, ops: FsOps, absolute: Buffer): Promise<void> {
  const aside = forwardAside(step) as Buffer
  const pre = step.pre as FileVersion
  // The whole stamp (ctime too) still proving `pre` just before the move lets the mtime prove it
  // after; otherwise the moved file is hashed (a same-size edit with its mtime put back is caught).
  const stamp = step.stamp && hasStamp(absolute, step.stamp) ? step.stamp : null
  const moved = await moveAside(ops, absolute, aside, pre, stamp)
  if (moved === 'gone') throw new ChangedUnderfoot(changedMessage(step.path))
  if (moved === 'changed') {
    await placeNoReplace(ops, aside, absolute, pre.kind === 'symlink')
    throw new ChangedUnderfoot(changedMessage(step.path))
  }
}

/**
 * What reverting a step did: nothing (the disk shows its `pre` state: it never ran), put `pre`
 * back (the disk showed exactly what the step wrote), or left the path as it was found: it
 * holds neither, so somebody changed it after the step ran — newer work, never overwritten.
 */
export type Reverted = { outcome: 'unchanged' | 'reverted' } | { outcome: 'left'; path: RelPath; found: DiskState }

const UNCHANGED: Reverted = { outcome: 'unchanged' }
const REVERTED: Reverted = { outcome: 'reverted' }

/**
 * Put a step's `pre` state back, only if the disk shows exactly its `post` state. Used by
 * rollback after a failure and by crash recovery, so it must be safe on a step that may or may
 * not have happened, and on a path the user changed since it did (hours later, after a crash).
 * The disk is checked again just before the change (an unchanged stamp, else a fresh hash).
 */
export async function revertStep(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps): Promise<Reverted> {
  if (step.kind === 'keep') return revertKeep(step, fs, ops)
  const { state, stamp } = await fs.stampedState(step.path)
  const forward = forwardAside(step)
  const forwardThere = forward !== null && lstatSync(forward, { throwIfNoEntry: false }) !== undefined
  const absolute = fs.resolve(step.path)
  const undo = undoAside(step)
  if (state === null && undo !== null && step.post !== null && lstatSync(undo, { throwIfNoEntry: false }) !== undefined) {
    // A rollback that had moved what the step wrote aside, and stopped (a crash, a failed call)
    // before what was there before was back: it is finished now.
    return putBefore(step, fs, blobs, ops, absolute, forwardThere ? forward : null)
  }
  if (state === null && forwardThere && (step.kind === 'delete' || lstatSync(tempOfAside(forward), { throwIfNoEntry: false }) !== undefined)) {
    // Set aside and nothing in its place (a delete, or a crash between a write's two renames: its
    // temp is still there; without it the write was done and its file deleted since): the file
    // goes back itself, with whatever a writer added to it meanwhile.
    if (!(await placeNoReplace(ops, forward, absolute, step.pre?.kind === 'symlink'))) return { outcome: 'left', path: step.path, found: await fs.state(step.path) }
    fsyncPath(folderOf(absolute))
    fs.checkRoot()
    return sameVersion(await fs.state(step.path), step.pre) ? REVERTED : { outcome: 'left', path: step.path, found: await fs.state(step.path) }
  }
  if (sameVersion(state, step.pre)) return UNCHANGED
  if (!sameVersion(state, step.post)) return { outcome: 'left', path: step.path, found: state }
  if (undo !== null && step.kind !== 'mode' && step.post !== null) return revertBySettingAside(step, fs, blobs, ops, { absolute, undo, stamp, forward: forwardThere ? forward : null })
  const modeOnly = step.kind === 'mode' && step.pre !== null && state !== null && state.kind === step.pre.kind
  const temp = step.pre !== null && !modeOnly ? await prepareTemp(fs, blobs, ops, step.path, step.pre) : null
  // Checked again just before the change: somebody may be writing the file right now.
  if (!(stamp && hasStamp(absolute, stamp))) {
    const now = await fs.state(step.path)
    if (!sameVersion(now, step.post)) {
      if (temp) await ops.unlink(temp).catch(() => undefined)
      return { outcome: 'left', path: step.path, found: now }
    }
  }
  fs.checkRoot()
  if (step.pre === null) await ops.unlink(absolute)
  else if (temp === null) await ops.chmod(absolute, step.pre.mode & 0o7777)
  else {
    await renameIntoPlace(ops, temp, absolute)
    fsyncPath(absolute.subarray(0, absolute.lastIndexOf(0x2f)))
  }
  fs.checkRoot()
  return REVERTED
}

/**
 * Revert a step whose file the disk shows exactly as the step wrote it: that file is moved aside
 * (to `undo`) and proven, then what was there before goes back without replacing anything: the
 * file the step set aside, if it is still there, else its content from the store.
 */
async function revertBySettingAside(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, at: { absolute: Buffer; undo: Buffer; stamp: StatStamp | null; forward: Buffer | null }): Promise<Reverted> {
  const post = step.post as FileVersion
  const temp = step.pre !== null && at.forward === null ? await prepareTemp(fs, blobs, ops, step.path, step.pre) : null
  try {
    fs.checkRoot()
    const moved = await moveAside(ops, at.absolute, at.undo, post, at.stamp)
    if (moved === 'gone') return { outcome: 'left', path: step.path, found: null }
    if (moved === 'changed') {
      await placeNoReplace(ops, at.undo, at.absolute, post.kind === 'symlink')
      return { outcome: 'left', path: step.path, found: await fs.state(step.path) }
    }
    const back = at.forward ?? temp
    if (back !== null && !(await placeNoReplace(ops, back, at.absolute, step.pre?.kind === 'symlink'))) return { outcome: 'left', path: step.path, found: await fs.state(step.path) }
    fsyncPath(folderOf(at.absolute))
    fs.checkRoot()
    return REVERTED
  } finally {
    if (temp) await ops.unlink(temp).catch(() => undefined) // placed (and so gone) unless something failed
  }
}

/** Put what was at a step's path before it back where nothing is: the file it set aside, else `pre` from the store (nothing, if it created the path). */
async function putBefore(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, absolute: Buffer, forward: Buffer | null): Promise<Reverted> {
  if (step.pre === null) return REVERTED
  const temp = forward === null ? await prepareTemp(fs, blobs, ops, step.path, step.pre) : null
  try {
    fs.checkRoot()
    if (!(await placeNoReplace(ops, forward ?? (temp as Buffer), absolute, step.pre.kind === 'symlink'))) return { outcome: 'left', path: step.path, found: await fs.state(step.path) }
    fsyncPath(folderOf(absolute))
    fs.checkRoot()
    return REVERTED
  } finally {
    if (temp) await ops.unlink(temp).catch(() => undefined)
  }
}

/** A kept copy goes back to its name only if it is still the file that was moved, and the name is still free. */
async function revertKeep(step: Step, fs: WorkspaceFs, ops: FsOps): Promise<Reverted> {
  if (!step.keptAs) return UNCHANGED
  const original = await fs.state(step.path)
  const kept = await fs.state(step.keptAs)
  if (kept === null) return sameVersion(original, step.pre) ? UNCHANGED : { outcome: 'left', path: step.path, found: original }
  if (original !== null) return { outcome: 'left', path: step.path, found: original }
  if (!sameVersion(kept, step.pre)) return { outcome: 'left', path: step.keptAs, found: kept }
  if (!(await placeNoReplace(ops, fs.resolve(step.keptAs), fs.resolve(step.path), kept.kind === 'symlink'))) return { outcome: 'left', path: step.path, found: await fs.state(step.path) }
  return REVERTED
}

/**
 * Every file the steps may have set aside, as what it must hold to be removed: each step's
 * forward aside (the file it replaced or deleted: `pre`) and, with `undone`, its undo aside
 * (what it wrote, moved by a rollback: `post`). Those not on disk are dropped by settleAsides.
 */
export function asidesOf(steps: Step[], undone: boolean): Aside[] {
  const asides: Aside[] = []
  for (const step of steps) {
    const forward = forwardAside(step)
    if (forward && step.pre) asides.push({ path: step.path, aside: forward, expected: step.pre, stamp: step.stamp ?? null })
    const undo = undone ? undoAside(step) : null
    if (undo && step.post) asides.push({ path: step.path, aside: undo, expected: step.post, stamp: null })
  }
  return asides
}

/** The current version at a path, captured into the blob store (the rewind's "before"). */
export async function captureCurrent(fs: WorkspaceFs, blobs: BlobStore, path: RelPath): Promise<FileVersion | null> {
  const state = await fs.state(path)
  if (state === null) return null
  if (state.kind === 'directory' || state.kind === 'other') throw new Error(`${displayPath(path)} is not a file`)
  const absolute = fs.resolve(path)
  const stored = state.kind === 'symlink' ? blobs.putBuffer(readlinkSync(absolute, { encoding: 'buffer' })) : await blobs.putFile(absolute)
  if (stored.hash !== state.hash) throw new ChangedUnderfoot(`${displayPath(path)} changed while it was being saved`)
  return state
}
