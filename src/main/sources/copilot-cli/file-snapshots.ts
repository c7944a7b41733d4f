import { lstatSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * The rewind of Copilot CLI's `REWIND_V2` option (experimental in 1.0.6x; it does not need git):
 * `<session>/rewind-file-snapshots/index.json` (`schema: 1`) lists, per prompt (`eventId`, the
 * `user.message` id), each file a tool touched with its `preimage`, taken just before the turn's
 * first change of it: `absent`, or `content` kept in `backups/<sha256 of the bytes>` (a link or a
 * file over 10 MB is `symlink` / `skipped`: not known here). A turn is written to the index once
 * the next prompt is sent. Read only.
 */

const PreimageSchema = z.union([
  z.object({ kind: z.literal('absent') }),
  z.object({ kind: z.literal('content'), backupFile: z.string() }),
  z.object({ kind: z.string() })
])

const SnapshotSchema = z.object({
  eventId: z.string(),
  files: z.record(z.string(), z.object({ path: z.string(), preimage: PreimageSchema }))
})
type Snapshot = z.infer<typeof SnapshotSchema>

const IndexSchema = z.object({ schema: z.literal(1), snapshots: z.array(z.unknown()) })

const BACKUP_NAME = /^[0-9a-f]{64}$/
const MAX_BYTES = 10 * 1024 * 1024

/** What a file held before the turn of prompt `promptEventId` changed it: text, null (absent), undefined (not known). */
export function fileSnapshotLookup(sessionDir: string): (promptEventId: string, absolutePath: string) => string | null | undefined {
  const dir = join(sessionDir, 'rewind-file-snapshots')
  let snapshots = readSnapshots(dir)
  return (promptEventId, absolutePath) => {
    let snapshot = snapshots.find((s) => s.eventId === promptEventId)
    if (!snapshot) {
      snapshots = readSnapshots(dir)
      snapshot = snapshots.find((s) => s.eventId === promptEventId)
    }
    const preimage = Object.values(snapshot?.files ?? {}).find((file) => file.path === absolutePath)?.preimage
    if (!preimage) return undefined
    if (preimage.kind === 'absent') return null
    return 'backupFile' in preimage ? backup(dir, preimage.backupFile) : undefined
  }
}

function readSnapshots(dir: string): Snapshot[] {
  let json: unknown
  try {
    json = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'))
  } catch {
    return []
  }
  const index = IndexSchema.safeParse(json)
  if (!index.success) return []
  return index.data.snapshots.flatMap((raw) => {
    const snapshot = SnapshotSchema.safeParse(raw)
    return snapshot.success ? [snapshot.data] : []
  })
}

function backup(dir: string, name: string): string | undefined {
  if (!BACKUP_NAME.test(name)) return undefined
  const path = join(dir, 'backups', name)
  try {
    const stats = lstatSync(path)
    return stats.isFile() && stats.size <= MAX_BYTES ? readFileSync(path, 'utf8') : undefined
  } catch {
    return undefined
  }
}
