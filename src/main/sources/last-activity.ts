import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'

const TAIL_BYTES = 64 * 1024
/** Claude Code and Codex CLI write an ISO `timestamp` on (nearly) every line. */
const TIMESTAMP = /"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT[^"]{1,40})"/g

/**
 * When a line history was last written to, by its own word: the latest `timestamp` in its last
 * 64 KiB. A copied `~/.claude` (cp, scp, a backup) gives every file the copy's time, so the
 * modification time is only the fallback, for files whose lines carry no time. Null if unreadable.
 */
export function lastActivityOf(path: string): number | null {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return null
  }
  try {
    const { size, mtimeMs } = fstatSync(fd)
    const buffer = Buffer.alloc(Math.min(size, TAIL_BYTES))
    const read = readSync(fd, buffer, 0, buffer.length, size - buffer.length)
    let latest: number | null = null
    for (const match of buffer.subarray(0, read).toString('utf8').matchAll(TIMESTAMP)) {
      const time = Date.parse(match[1] ?? '')
      if (!Number.isNaN(time) && (latest === null || time > latest)) latest = time
    }
    return latest ?? Math.trunc(mtimeMs)
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** A store that changes in place (a database): its modification time. Null if it is gone. */
export function modifiedAt(path: string): number | null {
  try {
    return Math.trunc(statSync(path).mtimeMs)
  } catch {
    return null
  }
}
