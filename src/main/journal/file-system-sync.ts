import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'

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
 * Make everything written so far on the file system holding `path` durable. An error (the
 * program failed, or syncfs reported a write-back error) rejects with code EIO: what was
 * written cannot be trusted to be on the disk.
 */
export function syncFileSystem(path: Buffer): Promise<void> {
  const sync = fileSystemSyncProgram()
  if (sync === null) return Promise.reject(Object.assign(new Error('this system has no syncfs program (sync --file-system)'), { code: 'ENOSYS' }))
  return new Promise((resolve, reject) => {
    // Absolute program path, arguments not through a shell; `--` so no path is read as an option.
    execFile(sync, ['--file-system', '--', path.toString()], { windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) return resolve()
      const why = String(stderr).trim() || error.message
      reject(Object.assign(new Error(`EIO: flushing the file system failed: ${why}`), { code: 'EIO' }))
    })
  })
}
