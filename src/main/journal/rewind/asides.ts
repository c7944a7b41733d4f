import { lstatSync, readlinkSync } from 'node:fs'
import { unlink } from 'node:fs/promises'
import { RetraceError } from '../../../shared/contract'
import type { BlobStore } from '../blob-store'
import type { FileVersion } from '../../store/repositories/journal'
import { displayPath, joinRel, type RelPath } from '../../fs/paths'
import type { FsOps, StatStamp, WorkspaceFs } from '../workspace-fs'
import { forEachConcurrently } from './concurrently'
import { openForWriting } from './open-writers'
import { holds, placeNoReplace } from './replace-file'

/**
 * A file a rewind moved aside (replace-file.ts): the one it replaced or deleted (`pre`), or, in
 * a rollback, the one it had written (`post`). Proven to be `expected` when it was moved; kept
 * until the rewind or its rollback is over, because a writer's open descriptor still writes to
 * it (R33).
 */
export interface Aside {
  /** The path it was moved from: a kept copy is named after it. */
  path: RelPath
  /** Where it is (absolute: beside the path, so on its file system). */
  aside: Buffer
  expected: FileVersion
  /** What proved `expected` when it was moved, if a stamp did (see replace-file.ts holds). */
  stamp: StatStamp | null
}

/** A file somebody wrote to while the rewind had it set aside: kept beside its path under a new name, and saved in the store. */
export interface KeptCopy {
  path: RelPath
  keptAs: RelPath
  /** Its content when it was kept (a writer may go on writing to the file on disk). */
  saved: FileVersion | null
}

export interface AsideContext {
  fs: WorkspaceFs
  blobs: BlobStore
  ops: FsOps
}

/**
 * The end of a rewind, or of its rollback: each file it set aside that is still there is
 * either what it was moved as, and nobody holds it open for writing (returned, to be removed),
 * or somebody wrote to it meanwhile, or still may (an open descriptor, on Linux): then it is
 * kept at `NAME.retrace-kept` (or -2, …) beside its path, saved, and returned as kept.
 */
export async function settleAsides(asides: Aside[], ctx: AsideContext): Promise<{ kept: KeptCopy[]; unchanged: Aside[] }> {
  const present = asides.filter((entry) => lstatSync(entry.aside, { throwIfNoEntry: false }) !== undefined)
  const writing = openForWriting(present.map((entry) => entry.aside))
  const kept: KeptCopy[] = []
  const unchanged: Aside[] = []
  for (const entry of present) {
    if (!writing.has(entry.aside.toString('latin1')) && (await holds(entry.aside, entry.expected, entry.stamp))) unchanged.push(entry)
    else kept.push(await keepVisible(entry, ctx))
  }
  return { kept, unchanged }
}

/**
 * Remove files set aside, each checked once more just before (a write that came after the
 * rewind's last look keeps it, visible, as settleAsides does). Those not there count as removed.
 * Complete if every one is gone or kept; if some could not be removed (the next start sweeps
 * them), the first error says why.
 */
export async function removeAsides(asides: Aside[], ctx: AsideContext): Promise<{ complete: boolean; kept: KeptCopy[]; error?: unknown }> {
  let complete = true
  let first: unknown
  const kept: KeptCopy[] = []
  await forEachConcurrently(asides, REMOVE_CONCURRENCY, async (entry) => {
    try {
      if (lstatSync(entry.aside, { throwIfNoEntry: false }) === undefined) return
      if (await holds(entry.aside, entry.expected, entry.stamp)) await unlink(entry.aside) // not one of the rewind's steps (FsOps): its content is in the store
      else kept.push(await keepVisible(entry, ctx))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      complete = false
      first ??= error
    }
  })
  return { complete, kept, ...(complete ? {} : { error: first }) }
}

/** Unlinks at once: each waits on the disk (the discard of the freed blocks), so a few overlap. */
const REMOVE_CONCURRENCY = 8

/** Move a set-aside file to the first free `NAME.retrace-kept…` beside its path, and save what it holds. */
async function keepVisible(entry: Aside, ctx: AsideContext): Promise<KeptCopy> {
  const isLink = lstatSync(entry.aside).isSymbolicLink()
  for (let attempt = 0; attempt < 8; attempt++) {
    const keptAs = await freeKeepName(ctx.fs, entry.path)
    const to = ctx.fs.resolve(keptAs)
    if (!(await placeNoReplace(ctx.ops, entry.aside, to, isLink))) continue // taken meanwhile: the next name
    return { path: entry.path, keptAs, saved: await save(to, ctx.blobs) }
  }
  throw new RetraceError('CONFLICT', `No free name to keep what was written to ${displayPath(entry.path)} while the rewind ran; it is still at ${entry.aside.toString()}.`)
}

async function save(absolute: Buffer, blobs: BlobStore): Promise<FileVersion | null> {
  try {
    const stats = lstatSync(absolute)
    const mode = stats.mode & 0o7777
    if (stats.isSymbolicLink()) {
      const target = readlinkSync(absolute, { encoding: 'buffer' })
      return { kind: 'symlink', hash: blobs.putBuffer(target).hash, size: target.length, mode }
    }
    const stored = await blobs.putFile(absolute)
    return { kind: 'file', hash: stored.hash, size: stored.size, mode }
  } catch {
    return null // still on disk, under its kept name: only the store's copy is missing
  }
}

/** `name.retrace-kept`, or `name.retrace-kept-2`, … : the first name nobody uses. */
export async function freeKeepName(fs: WorkspaceFs, path: RelPath): Promise<RelPath> {
  const slash = path.lastIndexOf(0x2f)
  const parent = path.subarray(0, Math.max(slash, 0))
  const name = path.subarray(slash + 1)
  for (let n = 1; n < 1000; n++) {
    const candidate = joinRel(parent, Buffer.concat([name, Buffer.from(n === 1 ? '.retrace-kept' : `.retrace-kept-${n}`)]))
    if ((await fs.state(candidate)) === null) return candidate
  }
  throw new RetraceError('CONFLICT', `No free name to keep a copy of ${displayPath(path)}.`)
}

/** Kept copies in words, for a rewind's message: where each is, and that it is saved. */
export function describeKept(kept: KeptCopy[]): string {
  if (kept.length === 0) return ''
  const each = kept.map((copy) => `${displayPath(copy.path)} as ${displayPath(copy.keptAs)}`).join(', ')
  return ` What was written while the rewind ran to files it had set aside is kept beside them (and saved in Retrace): ${each}.`
}
