import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Memory is measured in child processes run by vite-node, like the bench itself: the sources
// need its transforms (import.meta.glob), so a plain `node child.ts` would not load them.

/** vite-node's CLI entry, from its package.json (the package does not export it). */
export function viteNodeCli(): string {
  const pkgPath = createRequire(import.meta.url).resolve('vite-node/package.json')
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> }
  const bin = pkg.bin['vite-node']
  if (!bin) throw new Error('vite-node has no bin entry')
  return join(dirname(pkgPath), bin)
}

/** The repository root (children run from there so vite-node finds its config). */
export function projectRoot(): string {
  return fileURLToPath(new URL('../..', import.meta.url))
}
