import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * Every file and folder under `root` with its size, modification time and (files) content hash,
 * in a stable order: equal before and after an import means nothing was written in an agent's folder.
 */
export function folderListing(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      const stats = statSync(path)
      if (stats.isDirectory()) {
        out.push(`${relative(root, path)}/ ${stats.mtimeMs}`)
        walk(path)
      } else {
        out.push(`${relative(root, path)} ${stats.size} ${stats.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`)
      }
    }
  }
  walk(root)
  return out
}
