import type { HistoryFile } from './adapter'

/**
 * The newest sessions first, so a window opening a large history has the latest work at once,
 * and parents before what hangs off them: main sessions (a fork after the session it was forked
 * from, so its copied lines are recognised), then sub-agents (an agent's own agents after it). What a session refers to may come
 * after it (the session a `/clear` continues, the one a summary names): the import settles those
 * at its end (import-settling.ts).
 */
export function importOrder<T extends { file: HistoryFile }>(files: T[]): T[] {
  const bySession = new Map(files.filter((f) => f.file.role === 'main').map((f) => [f.file.sessionId, f]))
  const depth = (entry: T, seen = new Set<string>()): number => {
    const parent = entry.file.forkedFrom ? bySession.get(entry.file.forkedFrom.sessionId) : undefined
    if (!parent || seen.has(entry.file.sessionId)) return 0
    seen.add(entry.file.sessionId)
    return 1 + depth(parent, seen)
  }
  // A sub-agent's parent may be a sub-agent too (a Codex child thread spawning its own): outer ones first.
  const agents = new Map(files.filter((f) => f.file.role === 'sub-agent').map((f) => [f.file.sessionId, f]))
  const nesting = (entry: T, seen = new Set<string>()): number => {
    const parent = agents.get(entry.file.parentSessionId ?? '')
    if (!parent || seen.has(entry.file.sessionId)) return 0
    seen.add(entry.file.sessionId)
    return 1 + nesting(parent, seen)
  }
  const rank = (entry: T) => (entry.file.role === 'sub-agent' ? 1_000_000 + nesting(entry) : depth(entry))
  const started = (entry: T) => entry.file.startedAt ?? Number.MAX_SAFE_INTEGER
  return [...files].sort((a, b) => rank(a) - rank(b) || started(b) - started(a) || b.file.path.localeCompare(a.file.path))
}
