import { basename } from 'node:path'
import { COMPRESSED_SUFFIX, isCompressed } from '../compressed-files'

/**
 * One file per rollout among the files found. A rollout is named by its file name without
 * `.zst` (it embeds the session's uuid), wherever it is: Codex compresses an idle rollout beside
 * itself (`….jsonl` → `….jsonl.zst`, then deletes the plain one), decompresses it the same way
 * before writing on, and archives it by moving it, in whichever form, to `archived_sessions/`.
 * Both forms, or both places, can be seen at once (mid-way, or a leftover): the plain file wins
 * (it is the one Codex reads and writes; codex-rs/rollout/src/compression.rs prefers it too),
 * then the one under `sessions/` (where Codex looks first). The name is the import's content
 * key: a file that changed form or place continues the import of the one before.
 */
export function oneFilePerRollout(paths: readonly string[]): { path: string; contentKey: string }[] {
  const chosen = new Map<string, string>()
  for (const path of paths) {
    const key = contentKeyOf(path)
    const other = chosen.get(key)
    if (other === undefined || rank(path) < rank(other)) chosen.set(key, path)
  }
  return [...chosen].map(([contentKey, path]) => ({ path, contentKey })).sort((a, b) => a.path.localeCompare(b.path))
}

/** The rollout's file name without `.zst`. */
export function contentKeyOf(path: string): string {
  const name = basename(path)
  return isCompressed(name) ? name.slice(0, -COMPRESSED_SUFFIX.length) : name
}

function rank(path: string): number {
  return (isCompressed(path) ? 2 : 0) + (/[/\\]archived_sessions[/\\]/.test(path) ? 1 : 0)
}
