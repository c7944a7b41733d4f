import { readlinkSync } from 'node:fs'
import type { BlobStore, WriteOptions } from '../blob-store'
import { fsyncPath } from '../durable-file'
import type { DiskState, FileVersion } from '../../store/repositories/journal'
import { displayPath, type RelPath } from '../../fs/paths'
import { hasStamp, RootReplaced, sameVersion, type FsOps, type StatStamp, type WorkspaceFs } from '../workspace-fs'

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
  /** Where a lane linked the file this step replaced, until it is removed (set-aside.ts; never in the intent log). */
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
  if (!(step.pre && step.stamp && hasStamp(absolute, step.stamp))) await expectState(fs, step.path, step.pre)
  if (step.kind === 'keep' && step.keptAs) await expectState(fs, step.keptAs, null)
}

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
export async function prepareTemp(fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, path: RelPath, version: FileVersion, options?: WriteOptions): Promise<Buffer> {
  const absolute = fs.resolve(path)
  await ops.mkdir(absolute.subarray(0, absolute.lastIndexOf(0x2f)))
  const temp = fs.tempBeside(absolute)
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
      if (step.keptAs) await ops.rename(absolute, fs.resolve(step.keptAs))
      return
    case 'delete':
      await ops.unlink(absolute)
      return
    case 'mode':
      if (step.post) await ops.chmod(absolute, step.post.mode & 0o7777)
      return
    case 'write':
      if (step.post) await renameIntoPlace(ops, step.temp ?? (await prepareTemp(fs, blobs, ops, step.path, step.post)), absolute)
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
  if (sameVersion(state, step.pre)) return UNCHANGED
  if (!sameVersion(state, step.post)) return { outcome: 'left', path: step.path, found: state }
  const absolute = fs.resolve(step.path)
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

/** A kept copy goes back to its name only if it is still the file that was moved, and the name is still free. */
async function revertKeep(step: Step, fs: WorkspaceFs, ops: FsOps): Promise<Reverted> {
  if (!step.keptAs) return UNCHANGED
  const original = await fs.state(step.path)
  const kept = await fs.state(step.keptAs)
  if (kept === null) return sameVersion(original, step.pre) ? UNCHANGED : { outcome: 'left', path: step.path, found: original }
  if (original !== null) return { outcome: 'left', path: step.path, found: original }
  if (!sameVersion(kept, step.pre)) return { outcome: 'left', path: step.keptAs, found: kept }
  await ops.rename(fs.resolve(step.keptAs), fs.resolve(step.path))
  return REVERTED
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
