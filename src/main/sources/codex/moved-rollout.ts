import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'

/**
 * Where a Codex rollout no longer at its path may be now: Codex compresses idle rollouts to
 * `<name>.jsonl.zst` beside them (codex-rs/rollout compression.rs) and `codex archive` moves
 * them to `<CODEX_HOME>/archived_sessions/`. Such a file was moved, not deleted. Null when it is
 * in neither place.
 */
export function movedRollout(path: string, roots: string[]): string | null {
  const name = basename(path)
  const candidates = [`${path}.zst`, ...roots.flatMap((root) => [join(root, 'archived_sessions', name), join(root, 'archived_sessions', `${name}.zst`)])]
  return candidates.find((candidate) => existsSync(candidate)) ?? null
}
