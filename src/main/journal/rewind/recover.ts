import { readdirSync } from 'node:fs'
import type { BlobStore } from '../blob-store'
import type { FsOps } from '../workspace-fs'
import { TEMP_PREFIX, WorkspaceFs } from '../workspace-fs'
import { isProcessAlive } from '../process-owner'
import { appliedIntents, openIntents, removeAppliedIntent, removeIntent, type Intent } from './intent-log'
import { revertStep } from './steps'

export interface RecoveryReport {
  rolledBack: string[]
  /** Complete rewinds whose set-aside files (set-aside.ts) the process left behind, now removed. */
  swept: string[]
  failed: { rewindId: string; reason: string }[]
  unreadable: string[]
}

/**
 * Start-up: every rewind whose intent log is still open, and whose process is gone, was interrupted. Put each of its
 * files back to the state before the rewind (steps are reverted only where the disk shows
 * their result, so this is safe whatever point the rewind reached) and sweep its temp files.
 */
export async function recoverInterruptedRewinds(dataDir: string, blobs: BlobStore, ops: FsOps, markRolledBack: (intent: Intent) => void): Promise<RecoveryReport> {
  const { intents, unreadable } = openIntents(dataDir)
  const applied = appliedIntents(dataDir)
  const report: RecoveryReport = { rolledBack: [], swept: [], failed: [], unreadable: [...unreadable, ...applied.unreadable] }
  // Still being applied, or swept, by a live process (the app, a server, another command): not ours to touch.
  const ours = (intent: Intent) => intent.pid === undefined || !isProcessAlive(intent.pid)
  const fail = (intent: Intent, error: unknown) => report.failed.push({ rewindId: intent.rewindId, reason: error instanceof Error ? error.message : String(error) })
  for (const intent of intents.filter(ours)) {
    try {
      await revertIntent(intent, blobs, ops)
      markRolledBack(intent)
      removeIntent(dataDir, intent.rewindId)
      report.rolledBack.push(intent.rewindId)
    } catch (error) {
      fail(intent, error)
    }
  }
  // Complete: nothing to put back, only the files set aside to remove.
  for (const intent of applied.intents.filter(ours)) {
    try {
      await sweepTempFiles(workspaceOf(intent), ops, intent)
      removeAppliedIntent(dataDir, intent.rewindId)
      report.swept.push(intent.rewindId)
    } catch (error) {
      fail(intent, error)
    }
  }
  return report
}

const workspaceOf = (intent: Intent): WorkspaceFs => new WorkspaceFs(Buffer.from(intent.root, 'base64').toString())

async function revertIntent(intent: Intent, blobs: BlobStore, ops: FsOps): Promise<void> {
  const fs = workspaceOf(intent)
  for (const step of [...intent.steps].reverse()) await revertStep(step, fs, blobs, ops)
  await sweepTempFiles(fs, ops, intent)
}

/**
 * A crash between writing a temp file and renaming it leaves `.retrace-tmp-*` beside the target;
 * so does one before a set-aside file (set-aside.ts) was removed.
 */
async function sweepTempFiles(fs: WorkspaceFs, ops: FsOps, intent: Intent): Promise<void> {
  const folders = new Set<string>()
  for (const step of intent.steps) {
    const absolute = fs.resolve(step.path)
    folders.add(absolute.subarray(0, absolute.lastIndexOf(0x2f)).toString('latin1'))
  }
  for (const folder of folders) {
    const path = Buffer.from(folder, 'latin1')
    let names: Buffer[]
    try {
      names = readdirSync(path, { encoding: 'buffer' })
    } catch {
      continue
    }
    for (const name of names) {
      if (name.toString('latin1').startsWith(TEMP_PREFIX)) {
        await ops.unlink(Buffer.concat([path, Buffer.from('/'), name])).catch(() => undefined)
      }
    }
  }
}
