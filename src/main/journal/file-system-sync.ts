import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import type { BlobWriterPool } from './blob-writers'

/**
 * One flush for many files. Writing N files and fsyncing each costs up to N journal commits,
 * each waiting for the disk; a 1,000-file rewind spent most of its time there. On Linux,
 * syncfs(2) makes everything written on one file system durable with a single commit: for
 * every file the same guarantee its own fsync gives (git's `core.fsyncMethod=batch` rests on
 * the same idea). Node has no binding for syncfs; coreutils' `sync --file-system PATH` is
 * exactly that call (Debian, Fedora, Arch, Alpine's busybox all have it). Elsewhere, and when
 * no such program is found, files are fsynced one by one as before.
 */
const SYNC_PROGRAMS = ['/bin/sync', '/usr/bin/sync']

let program: string | null | undefined

/** The program that runs syncfs(2), or null where there is none (not Linux, not found). */
export function fileSystemSyncProgram(): string | null {
  if (program === undefined) program = process.platform === 'linux' ? (SYNC_PROGRAMS.find((path) => existsSync(path)) ?? null) : null
  return program
}

/**
 * Make everything written so far on the file system holding `path` durable: through the
 * writers' flusher thread and the helper process it keeps when `writers` is given (no process
 * start per flush), else by starting the program. An error (the program failed, or syncfs
 * reported a write-back error) rejects with code EIO: what was written cannot be trusted to be
 * on the disk.
 */
export async function syncFileSystem(path: Buffer, writers?: BlobWriterPool): Promise<void> {
  const sync = fileSystemSyncProgram()
  if (sync === null) throw Object.assign(new Error('this system has no syncfs program (sync --file-system)'), { code: 'ENOSYS' })
  if (writers) return writers.sync(sync, path) // rejects as below (blob-writer/flush-helper.mts FlushHelper)
  try {
    // `--` so no path is read as an option; no shell.
    await promisify(execFile)(sync, ['--file-system', '--', path.toString()], { windowsHide: true })
  } catch (error) {
    const { message, stderr } = error as { message: string; stderr?: string }
    throw Object.assign(new Error(`EIO: flushing the file system failed: ${stderr?.trim() || message}`), { code: 'EIO' })
  }
}
