import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Temp files and intent logs carry the id of the process that wrote them, so start-up can
 * prove they are stale before it sweeps or recovers them: another Retrace process (the app, a
 * `retrace serve`, a CLI command) may be in the middle of a scan or a rewind on the same store.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The writer of a temp file named `<pid>-…`; null for any other name (always stale). */
export function ownerOfTempName(name: string): number | null {
  const match = /^(\d+)-/.exec(name)
  return match ? Number(match[1]) : null
}

/**
 * The process that owns an intent log. A pid alone is not enough: after a crash and a reboot,
 * or simply after a while, the pid is reused by some other process, and a pending intent would
 * then wait forever for an owner that is not coming back. The start of the process settles it.
 */
export interface ProcessOwner {
  pid: number
  /** When the process started, as the system tells it (see processStart); absent where it cannot be read. */
  started?: string
}

let self: ProcessOwner | undefined

/** This process as an owner. */
export function currentOwner(): ProcessOwner {
  if (!self) {
    const started = processStart(process.pid)
    self = { pid: process.pid, ...(started === null ? {} : { started }) }
  }
  return self
}

/**
 * True while the process that wrote `owner` still runs. A live pid with another start time is
 * a different process that got the same pid. Where the start cannot be read (an owner written
 * without it, a system that hides it), a live pid counts as the owner: the safe side, as a
 * live owner's intent is left alone.
 */
export function isOwnerAlive(owner: ProcessOwner): boolean {
  if (!isProcessAlive(owner.pid)) return false
  if (owner.started === undefined) return true
  const started = processStart(owner.pid)
  return started === null || started === owner.started
}

/**
 * A process's start, unique among the processes of this machine over time: on Linux the boot
 * id and the start time in clock ticks since boot (/proc/PID/stat, field 22); on macOS and the
 * BSDs what `ps` prints as its start (to the second). Null if unknown (no such process,
 * Windows, or hidden from us).
 */
export function processStart(pid: number): string | null {
  if (process.platform === 'linux') return linuxStart(pid)
  if (process.platform === 'win32') return null
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5000 })
  const started = ps.status === 0 ? ps.stdout.trim() : ''
  return started === '' ? null : started
}

let bootId: string | null | undefined

function linuxStart(pid: number): string | null {
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = fields[22 - 3]
    return ticks ? `${bootId}:${ticks}` : null
  } catch {
    return null
  }
}
