import { RetraceError } from '../../shared/contract'

/** Errors that mean the disk (or the user's quota) is full: the file system's, and SQLite's. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL'])

export function isDiskFull(error: unknown): boolean {
  return typeof error === 'object' && error !== null && DISK_FULL_CODES.has(String((error as { code?: unknown }).code))
}

/**
 * What a full disk is called in every message: a write that ran out of space is not a file
 * that "cannot be read", and the user needs the place to free space on.
 */
export function diskFullMessage(folder: string): string {
  return `disk full (ENOSPC): no space left to write in ${folder}; free some space there and try again`
}

/** `error` as a clear disk-full error naming `folder` when it is one; otherwise as it is. */
export function explainDiskFull(error: unknown, folder: string): unknown {
  return isDiskFull(error) ? new RetraceError('IO_ERROR', diskFullMessage(folder)) : error
}
