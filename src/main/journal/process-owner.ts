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
