import { lstatSync } from 'node:fs'
import { open } from 'node:fs/promises'
import type { RelPath } from '../../fs/paths'
import type { FsOps } from '../workspace-fs'
import { forEachConcurrently } from './concurrently'

/**
 * Which folders are on the workspace root's file system, where one syncfs of the root covers
 * everything written (see file-system-sync.ts). A folder that does not exist yet will be made
 * inside its nearest existing ancestor, so it is judged by that one. Answers are cached: a
 * rewind asks once per file.
 */
export class RootFileSystem {
  private readonly device: bigint
  private readonly answers = new Map<string, boolean>()

  constructor(readonly root: Buffer) {
    this.device = lstatSync(root, { bigint: true }).dev
  }

  /**
   * True if the folder of `path` (relative to the root) is, or would be created, on the root's
   * file system. Only asks (lstat): whatever then writes there resolves the path itself.
   */
  holdsFolderOf(path: RelPath): boolean {
    const slash = path.lastIndexOf(0x2f)
    return slash < 0 ? true : this.holds(Buffer.concat([this.root, Buffer.from('/'), path.subarray(0, slash)]))
  }

  /** True if `folder` (absolute, under the root) is, or would be created, on the root's file system. */
  holds(folder: Buffer): boolean {
    const key = folder.toString('latin1')
    const known = this.answers.get(key)
    if (known !== undefined) return known
    let answer: boolean
    try {
      answer = lstatSync(folder, { bigint: true }).dev === this.device
    } catch {
      const slash = folder.lastIndexOf(0x2f)
      answer = slash <= this.root.length ? true : this.holds(folder.subarray(0, slash))
    }
    this.answers.set(key, answer)
    return answer
  }
}

/** The folder holding `absolute`. */
export const folderOf = (absolute: Buffer): Buffer => absolute.subarray(0, absolute.lastIndexOf(0x2f))

/** Folders fsynced at once: where one journal commit covers many renames, the others return at once. */
const FOLDER_SYNC_CONCURRENCY = 16

/**
 * Make the renames in `folders` durable. With `rootFs` (a batched rewind), one syncfs of the
 * root covers every folder on its file system and only the others are fsynced; without, each
 * folder is fsynced (concurrently: one after another they cost a disk flush each).
 */
export async function makeFoldersDurable(folders: Buffer[], ops: FsOps, rootFs: RootFileSystem | null): Promise<void> {
  const others = rootFs ? folders.filter((folder) => !rootFs.holds(folder)) : folders
  if (rootFs) await ops.syncFileSystem(rootFs.root)
  await forEachConcurrently(others, FOLDER_SYNC_CONCURRENCY, fsyncFolder)
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
