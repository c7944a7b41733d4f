import { createHash } from 'node:crypto'
import { RetraceError } from '../../../shared/contract'
import type { BlobStore } from '../blob-store'
import type { DiskState, FileVersion, JournalEntry } from '../../store/repositories/journal'
import { foldsCase } from '../../fs/case-folding'
import { caseFoldKey, displayPath, keyOf, splitSegments, type PathKey, type RelPath } from '../../fs/paths'
import type { ScannedFile } from '../scan/types'
import { sameContent, sameVersion, type StatStamp, type WorkspaceFs } from '../workspace-fs'
import type { PathTarget } from './path-target'
import { vetTargets, type VetContext, type Vetted } from './provenance'

export type PlanAction = 'restore' | 'create' | 'delete' | 'mode' | 'none'

export interface PlanItem extends PathTarget {
  key: PathKey
  current: DiskState
  /** Proof that the disk still holds `current` without hashing it again (see `WorkspaceFs.stampedState`). */
  stamp: StatStamp | null
  action: PlanAction
  /** The disk no longer matches the journal: the user decides (skip, overwrite, keep both). */
  conflict: string | null
  /** Cannot be done safely at all (hostile path, missing snapshot, case collision…). */
  refused: string | null
  /** Refused because the saved content it needs is gone from the store: the checkpoint can never be fully restored. */
  snapshotMissing?: true
  /** What a restored link will point to (the target is a symlink), as stored. */
  linkTarget: Buffer | null
  /**
   * A file that runs code or grants access, from a history this computer did not record
   * (provenance.ts): the apply writes it only if the request confirms it by path.
   */
  needsConfirmation: string | null
}

export interface RewindPlan {
  items: PlanItem[]
  /** Fingerprint of the workspace folder and every item's disk state: an apply re-plans and must see the same. */
  token: string
  /** Which folder the plan looked at: its real path, device and inode (a root swapped since the preview changes it). */
  rootKey: string
}

/**
 * Fold journal entries (oldest first) into one target per path: the state before the first
 * entry, and the state after the last. A rename is the old path emptied and the new one filled.
 */
export function targetsFromEntries(entries: JournalEntry[]): PathTarget[] {
  const byPath = new Map<PathKey, PathTarget>()
  const touch = (path: RelPath, before: FileVersion | null, after: FileVersion | null) => {
    const key = keyOf(path)
    const known = byPath.get(key)
    if (known) known.expected = after
    else byPath.set(key, { path, target: before, expected: after })
  }
  for (const entry of entries) {
    if (entry.op === 'rename' && entry.fromPath) {
      touch(entry.fromPath, entry.before, null)
      touch(entry.path, null, entry.after)
    } else {
      touch(entry.path, entry.before, entry.after)
    }
  }
  return [...byPath.values()]
}

/**
 * Compare each target with the disk and decide what a rewind would do, without writing
 * anything. `scanned` holds the workspace's last scan of the target paths, so files whose stat
 * still matches it need not be read (see `WorkspaceFs.stampedState`). `seenHere` tells which
 * target versions this machine saw itself (provenance.ts); without it every version is foreign.
 */
export async function planFromTargets(
  targets: PathTarget[],
  fs: WorkspaceFs,
  blobs: BlobStore,
  scanned?: Map<PathKey, ScannedFile>,
  seenHere: VetContext['seenHere'] = () => []
): Promise<RewindPlan> {
  const items: PlanItem[] = []
  const unavailable = blobs.unavailableOf(targets.flatMap((target) => (target.target ? [target.target.hash] : [])))
  const context: PlanContext = {
    fs,
    checkedFolders: new Set<string>(), // each folder on the way looked at once (see WorkspaceFs.resolve)
    unavailable,
    vetted: vetTargets(targets, { blobs, ...(scanned ? { scanned } : {}), unavailable, seenHere, root: fs.root })
  }
  for (const target of targets) items.push(await planItem(target, context, scanned?.get(keyOf(target.path))))
  refuseCaseCollisions(items, (folder) => foldsCase(Buffer.concat([fs.root, folder.length > 0 ? Buffer.from('/') : Buffer.alloc(0), folder])))
  fs.checkRoot() // the pass read through the root's path: it must still be the folder it began with
  const rootKey = `${fs.root.toString('base64')}\0${fs.identity.dev}:${fs.identity.ino}`
  const token = createHash('sha256').update(`${rootKey}\n`)
  for (const item of items) token.update(`${item.key}\0${JSON.stringify(item.current)}\0${item.action}\n`)
  return { items, token: token.digest('hex'), rootKey }
}

/** What every item of one plan shares. */
interface PlanContext {
  fs: WorkspaceFs
  checkedFolders: Set<string>
  /** Target hashes whose saved content is missing from the store. */
  unavailable: Set<string>
  /** Each target as its provenance allows it (provenance.ts). */
  vetted: Map<PathKey, Vetted>
}

async function planItem(original: PathTarget, { fs, checkedFolders, unavailable, vetted }: PlanContext, scanned: ScannedFile | undefined): Promise<PlanItem> {
  const vet = vetted.get(keyOf(original.path))
  const target = vet ? { ...original, target: vet.target } : original
  const item: PlanItem = { ...target, key: keyOf(target.path), current: null, stamp: null, action: 'none', conflict: null, refused: null, linkTarget: vet?.linkTarget ?? null, needsConfirmation: null }
  try {
    const { state, stamp } = await fs.stampedState(target.path, scanned, checkedFolders)
    item.current = state
    item.stamp = stamp
  } catch (error) {
    item.refused = error instanceof RetraceError ? error.message : `cannot be read: ${(error as Error).message}`
    return item
  }
  if (sameVersion(item.current, target.target)) return item
  item.action = actionFor(item.current, target.target)
  if (target.target && unavailable.has(target.target.hash)) {
    item.refused = `the saved snapshot of ${displayPath(target.path)} is missing from the store, so it cannot be restored`
    item.snapshotMissing = true
    return item
  }
  if (item.current && (item.current.kind === 'directory' || item.current.kind === 'other')) {
    item.refused = `${displayPath(target.path)} is now a ${item.current.kind === 'directory' ? 'folder' : 'special file'}; Retrace does not replace it`
    return item
  }
  if (vet?.refused) {
    item.refused = vet.refused
    return item
  }
  if (item.action !== 'delete') item.needsConfirmation = vet?.needsConfirmation ?? null
  if (!sameVersion(item.current, target.expected) && !(item.action === 'mode' && sameContent(item.current, target.expected))) {
    item.conflict = describeConflict(item.current, target.expected)
  }
  return item
}

function actionFor(current: DiskState, target: FileVersion | null): PlanAction {
  if (target === null) return 'delete'
  if (current === null) return 'create'
  if (sameContent(current, target)) return 'mode'
  return 'restore'
}

function describeConflict(current: DiskState, expected: FileVersion | null): string {
  if (current === null) return 'deleted since the agent last wrote it'
  if (expected === null) return 'created since the agent removed it (someone else\'s file)'
  return 'changed since the agent last wrote it'
}

/**
 * Two paths that differ only by case are one file where the disk ignores case (macOS's and
 * Windows' usual disks, a FAT stick): one would overwrite the other, so both are refused there.
 * `foldsCase` answers for a folder (workspace-relative) by probing it (fs/case-folding.ts); on
 * a disk that tells case apart (Linux's usual ones), `Makefile` and `makefile` are two files and
 * are rewound as such.
 */
export function refuseCaseCollisions(items: PlanItem[], foldsCase: (folder: Buffer) => boolean): void {
  const byFold = new Map<string, PlanItem[]>()
  for (const item of items) {
    if (item.action === 'none') continue
    const fold = caseFoldKey(item.path)
    byFold.set(fold, [...(byFold.get(fold) ?? []), item])
  }
  for (const group of byFold.values()) {
    if (group.length < 2 || !foldsCase(folderOfCollision(group.map((item) => item.path)))) continue
    const names = group.map((item) => displayPath(item.path)).join(', ')
    for (const item of group) item.refused ??= `its name differs only by case from another file in this rewind (${names}), and this disk ignores case: one would overwrite the other`
  }
}

/** The folder where paths that fold alike first differ (`src` for `src/A` and `src/a`; the root for `Src/a` and `src/a`). */
function folderOfCollision(paths: Buffer[]): Buffer {
  const split = paths.map((path) => splitSegments(path))
  const first = split[0] ?? []
  let same = 0
  while (same < first.length - 1 && split.every((segments) => segments[same]?.equals(first[same] as Buffer))) same++
  return Buffer.from(first.slice(0, same).map((segment) => segment.toString('latin1')).join('/'), 'latin1')
}
