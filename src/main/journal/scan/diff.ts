import type { PathKey, RelPath } from '../../fs/paths'
import type { ScannedFile } from './types'

export type FileChangeOp = 'create' | 'modify' | 'delete' | 'rename' | 'mode'

export interface FileChange {
  op: FileChangeOp
  path: RelPath
  /** Only for `rename`: where the content was before. */
  fromPath?: RelPath
  before?: ScannedFile
  after?: ScannedFile
}

const byPath = (a: ScannedFile, b: ScannedFile): number => Buffer.compare(a.path, b.path)
const identity = (file: ScannedFile): string => `${file.kind}:${file.hash}`

/**
 * What changed between two scans of one workspace. `modify`: content or kind differs; `mode`:
 * only the permission bits differ; `rename`: a path that disappeared and one that appeared with
 * the same content and kind. Renames are paired in path-byte order, each path at most once, so
 * the same two scans always give the same answer. Sorted by path bytes.
 */
export function diffScans(before: Map<PathKey, ScannedFile>, after: Map<PathKey, ScannedFile>): FileChange[] {
  const changes: FileChange[] = []
  const deleted: ScannedFile[] = []
  const created: ScannedFile[] = []
  for (const [key, old] of before) {
    const now = after.get(key)
    if (!now) deleted.push(old)
    else if (now.hash !== old.hash || now.kind !== old.kind) changes.push({ op: 'modify', path: now.path, before: old, after: now })
    else if (now.mode !== old.mode) changes.push({ op: 'mode', path: now.path, before: old, after: now })
  }
  for (const [key, now] of after) if (!before.has(key)) created.push(now)

  // Deleted files by content, each list in path order: the first unpaired one is taken.
  const gone = new Map<string, ScannedFile[]>()
  for (const old of deleted.sort(byPath)) {
    const list = gone.get(identity(old))
    if (list) list.push(old)
    else gone.set(identity(old), [old])
  }
  const renamed = new Set<ScannedFile>()
  for (const now of created.sort(byPath)) {
    const old = gone.get(identity(now))?.shift()
    if (old) {
      renamed.add(old)
      changes.push({ op: 'rename', path: now.path, fromPath: old.path, before: old, after: now })
    } else {
      changes.push({ op: 'create', path: now.path, after: now })
    }
  }
  for (const old of deleted) if (!renamed.has(old)) changes.push({ op: 'delete', path: old.path, before: old })
  return changes.sort((a, b) => Buffer.compare(a.path, b.path))
}
