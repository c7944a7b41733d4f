import { readlinkSync } from 'node:fs'
import type { BlobStore } from '../blob-store'
import { fsyncPath } from '../blob-store'
import type { FileVersion } from '../journal-repository'
import { displayPath, type RelPath } from '../paths'
import { sameVersion, type DiskState, type FsOps, type WorkspaceFs } from '../workspace-fs'

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
}

/** Thrown when a file is not what the plan saw just before Retrace would touch it. */
export class ChangedUnderfoot extends Error {}

export async function expectState(fs: WorkspaceFs, path: RelPath, expected: FileVersion | null): Promise<void> {
  const state = await fs.state(path)
  if (!sameVersion(state, expected)) {
    throw new ChangedUnderfoot(`${displayPath(path)} changed while the rewind was running (is an agent still writing?)`)
  }
}

/**
 * Write `version` to a fresh temp file beside `path` (content verified against its hash,
 * fsynced) and return the temp's path; nothing at `path` changes yet.
 */
export async function prepareTemp(fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, path: RelPath, version: FileVersion): Promise<Buffer> {
  const absolute = fs.resolve(path)
  await ops.mkdir(absolute.subarray(0, absolute.lastIndexOf(0x2f)))
  const temp = fs.tempBeside(absolute)
  try {
    if (version.kind === 'symlink') {
      await ops.symlink(blobs.read(version.hash), temp)
    } else {
      await ops.writeBlob(blobs, version.hash, temp, version.mode & 0o7777)
      await ops.chmod(temp, version.mode & 0o7777)
    }
    return temp
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined)
    throw error
  }
}

/**
 * Put `version` at `path` atomically: temp file beside it, verified content, fsync, rename.
 * The folder is fsynced here only when `syncFolder` (rollback, recovery); a rewind syncs each
 * folder once after all its renames.
 */
export async function writeVersion(fs: WorkspaceFs, blobs: BlobStore, ops: FsOps, path: RelPath, version: FileVersion, syncFolder = true, prepared?: Buffer): Promise<void> {
  const absolute = fs.resolve(path)
  const temp = prepared ?? (await prepareTemp(fs, blobs, ops, path, version))
  try {
    await ops.rename(temp, absolute)
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined)
    throw error
  }
  if (syncFolder) fsyncPath(absolute.subarray(0, absolute.lastIndexOf(0x2f)))
}

/** Run one step forward. The caller has checked the disk holds `step.pre`. */
export async function runStep(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps): Promise<void> {
  const absolute = fs.resolve(step.path)
  switch (step.kind) {
    case 'keep':
      if (step.keptAs) await ops.rename(absolute, fs.resolve(step.keptAs))
      return
    case 'delete':
      await ops.unlink(absolute)
      await pruneEmptyParents(fs, ops, step.path)
      return
    case 'mode':
      if (step.post) await ops.chmod(absolute, step.post.mode & 0o7777)
      return
    case 'write':
      if (step.post) await writeVersion(fs, blobs, ops, step.path, step.post, false, step.temp)
  }
}

/**
 * Put a step's `pre` state back if the disk shows its `post` state; leave it alone if it
 * already shows `pre`. Used by rollback after a failure and by crash recovery, so it must be
 * safe to run on a step that may or may not have happened.
 */
export async function revertStep(step: Step, fs: WorkspaceFs, blobs: BlobStore, ops: FsOps): Promise<void> {
  if (step.kind === 'keep') {
    if (!step.keptAs) return
    const kept = await fs.state(step.keptAs)
    const original = await fs.state(step.path)
    if (kept !== null && original === null) await ops.rename(fs.resolve(step.keptAs), fs.resolve(step.path))
    return
  }
  const state: DiskState = await fs.state(step.path)
  if (sameVersion(state, step.pre)) return
  if (step.pre === null) {
    await ops.unlink(fs.resolve(step.path))
  } else if (step.kind === 'mode' && state !== null && state.kind === step.pre.kind) {
    await ops.chmod(fs.resolve(step.path), step.pre.mode & 0o7777)
  } else {
    await writeVersion(fs, blobs, ops, step.path, step.pre)
  }
}

/** After a delete, remove folders it left empty (never the workspace root). */
async function pruneEmptyParents(fs: WorkspaceFs, ops: FsOps, path: RelPath): Promise<void> {
  let end = path.lastIndexOf(0x2f)
  while (end > 0) {
    try {
      await ops.rmdir(fs.resolve(path.subarray(0, end)))
    } catch {
      return // not empty (or already gone): stop climbing
    }
    end = path.lastIndexOf(0x2f, end - 1)
  }
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
