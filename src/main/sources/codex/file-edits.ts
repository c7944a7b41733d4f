import type { FileEditRecord } from '../records'
import type { PatchOp } from './apply-patch'

// apply_patch operations as file-edit records. Paths stay as the agent wrote them, resolved
// against the directory the call ran in; Windows forms are recognised too, since a rollout may
// come from another machine (the importer resolves them against the workspace later).

/** One patch operation as a file-edit record (an update carries only its hunks). */
export function fileEdit(op: PatchOp, offset: number, toolCallId: string | null, base: string | null): FileEditRecord {
  const record: FileEditRecord = { kind: 'file-edit', offset, toolCallId, path: resolvePath(base, op.path) }
  switch (op.type) {
    case 'add':
      record.before = null
      record.after = op.content
      break
    case 'delete':
      record.after = null
      break
    case 'update':
      record.patch = op.hunks
      if (op.movePath) {
        record.fromPath = record.path
        record.path = resolvePath(base, op.movePath)
      }
      break
  }
  return record
}

function isAbsolute(path: string): boolean {
  return /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path)
}

/** A patch path relative to the directory the call ran in; as written when that is unknown. */
function resolvePath(base: string | null, path: string): string {
  if (base === null || isAbsolute(path)) return path
  return `${base.replace(/[\\/]+$/, '')}/${path.replace(/^\.\//, '')}`
}

/** The directory a shell `cd` moved to before apply_patch ran. */
export function joinPath(workdir: string | null, cd: string | null): string | null {
  if (cd === null) return workdir
  if (isAbsolute(cd) || workdir === null) return cd
  return resolvePath(workdir, cd)
}
