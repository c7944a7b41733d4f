import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A real, tiny file system mounted at `at` (or a new temp folder). Needs root (mount); null without. */
export function mountTmpfs(sizeKb: number, at?: string): string | null {
  const dir = at ?? mkdtempSync(join(tmpdir(), 'retrace-tmpfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    if (!at) rmSync(dir, { recursive: true, force: true })
    return null
  }
}

/** Unmount (lazily: a test's open handles must not keep it) and remove the folder. */
export function unmountTmpfs(dir: string): void {
  execFileSync('umount', ['-l', dir])
  rmSync(dir, { recursive: true, force: true })
}

/** Whether this process may mount a tmpfs (tests that need one skip, and say why, when not). */
export function canMountTmpfs(): boolean {
  const probe = mountTmpfs(64)
  if (!probe) return false
  unmountTmpfs(probe)
  return true
}
