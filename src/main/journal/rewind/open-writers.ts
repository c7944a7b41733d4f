import { readdirSync, readFileSync, statSync } from 'node:fs'

/** O_ACCMODE of the `flags:` line of /proc/PID/fdinfo/FD (octal): 1 write only, 2 read and write. */
const ACCESS_MODE = 0o3

/**
 * Which of `files` (absolute paths, by device and inode) another process holds open for
 * writing. A file a rewind set aside and is about to remove may be the one an agent's open
 * descriptor still writes to (a log, a long-running tool): removed, every later write would go
 * nowhere (R33). On Linux, each process's descriptors are looked up in /proc (those of the
 * user's own processes: others' are not readable, and cannot write the user's files unless
 * shared). Elsewhere there is no such table to read without a helper program: an empty set, and
 * only writes made before the rewind's last look are caught (docs/reliability.md, R33).
 */
export function openForWriting(files: Buffer[]): Set<string> {
  const found = new Set<string>()
  if (process.platform !== 'linux' || files.length === 0) return found
  const byInode = new Map<string, string>()
  for (const file of files) {
    const stats = inodeOf(file)
    if (stats) byInode.set(`${stats.dev}:${stats.ino}`, file.toString('latin1'))
  }
  if (byInode.size === 0) return found
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
  } catch {
    return found
  }
  for (const pid of pids) {
    let descriptors: string[]
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue // gone, or another user's
    }
    for (const fd of descriptors) {
      const stats = inodeOf(`/proc/${pid}/fd/${fd}`)
      const file = stats && byInode.get(`${stats.dev}:${stats.ino}`)
      if (file === undefined || found.has(file) || !writable(pid, fd)) continue
      found.add(file)
    }
  }
  return found
}

/** stat (the descriptor's file, through its /proc link), or undefined if it cannot be had. */
function inodeOf(path: string | Buffer): { dev: bigint; ino: bigint } | undefined {
  try {
    return statSync(path, { bigint: true, throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

function writable(pid: string, fd: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1]
    return flags === undefined || (parseInt(flags, 8) & ACCESS_MODE) !== 0
  } catch {
    return false // closed meanwhile
  }
}
