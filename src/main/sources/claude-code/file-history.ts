import type { z } from 'zod'
import type { FileBackup, FileBackupsRecord, SkippedRecord } from '../records'
import { type BackupSchema, DeltaLineSchema, SnapshotLineSchema, describeIssue } from './schema'

function parseTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  const time = Date.parse(value)
  return Number.isNaN(time) ? undefined : time
}

function toBackup(path: string, backup: z.infer<typeof BackupSchema>): FileBackup {
  const backupTime = parseTime(backup.backupTime)
  const file: FileBackup = { path, backupFileName: backup.backupFileName, version: backup.version }
  if (backupTime !== undefined) file.backupTime = backupTime
  return file
}

/**
 * A `file-history-snapshot` line: the files tracked for the turn opened by
 * `snapshot.messageId`. Update lines (`isSnapshotUpdate`) name the assistant message that
 * triggered them in the line's own `messageId` but restate the whole snapshot of the turn in
 * `snapshot.messageId`, so that one keys the record (the line's id only when it is missing).
 */
export function snapshotRecord(line: unknown, offset: number): FileBackupsRecord | SkippedRecord {
  const parsed = SnapshotLineSchema.safeParse(line)
  if (!parsed.success) return { kind: 'skipped', offset, reason: `file-history-snapshot line: ${describeIssue(parsed.error)}` }
  const messageUid = parsed.data.snapshot.messageId ?? parsed.data.messageId
  if (!messageUid) return { kind: 'skipped', offset, reason: 'file-history-snapshot line names no messageId' }
  const files = Object.entries(parsed.data.snapshot.trackedFileBackups).map(([path, backup]) => toBackup(path, backup))
  return { kind: 'file-backups', offset, messageUid, mode: 'snapshot', files }
}

/**
 * A `file-history-delta` line (Claude Code ≥ 2.1.220): one file added to the snapshot of the
 * turn `snapshotMessageId` (the line's `messageId` when that is missing).
 */
export function deltaRecord(line: unknown, offset: number): FileBackupsRecord | SkippedRecord {
  const parsed = DeltaLineSchema.safeParse(line)
  if (!parsed.success) return { kind: 'skipped', offset, reason: `file-history-delta line: ${describeIssue(parsed.error)}` }
  const messageUid = parsed.data.snapshotMessageId ?? parsed.data.messageId
  if (!messageUid) return { kind: 'skipped', offset, reason: 'file-history-delta line names no messageId' }
  return { kind: 'file-backups', offset, messageUid, mode: 'delta', files: [toBackup(parsed.data.trackingPath, parsed.data.backup)] }
}
