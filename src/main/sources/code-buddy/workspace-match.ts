import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { isWithin } from '../files'

/** Real paths of recorded working directories, looked up once per process (discovery runs every few seconds). */
const realPaths = new Map<string, string | null>()
const MAX_REMEMBERED = 10_000

/**
 * A recorded working directory belongs to a workspace when it is the workspace or inside it. The
 * workspace is a real path; the recorded one may go through a symlink, so its real path counts too.
 */
export function isInWorkspace(recorded: string, workspace: string): boolean {
  const plain = resolve(recorded)
  if (isWithin(plain, workspace)) return true
  const real = realPathOf(plain)
  return real !== null && isWithin(real, workspace)
}

/** Whether two folders are the same (a root named through a symlink is still that root). */
export function sameFolder(a: string, b: string): boolean {
  const plainA = resolve(a)
  const plainB = resolve(b)
  if (plainA === plainB) return true
  const realA = realPathOf(plainA)
  return realA !== null && realA === realPathOf(plainB)
}

function realPathOf(path: string): string | null {
  if (realPaths.has(path)) return realPaths.get(path) ?? null
  let real: string | null
  try {
    real = realpathSync(path)
  } catch {
    real = null // a folder of another machine, or deleted: only its recorded form can match
  }
  if (realPaths.size >= MAX_REMEMBERED) realPaths.clear()
  realPaths.set(path, real)
  return real
}
