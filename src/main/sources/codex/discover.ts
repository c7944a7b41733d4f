import { homedir } from 'node:os'
import { join } from 'node:path'
import type { HistoryFile } from '../adapter'
import type { DiscoveryCache } from '../discovery-cache'
import { isWithin, readHeadObjects, walkFiles } from '../files'
import { legacyCwd, legacyLine } from './legacy-rollout'
import { oneFilePerRollout } from './rollout-files'
import { isRotatedSegment, referencedSegment, segmentsOf } from './rollout-segments'
import { readThreadNames } from './session-index'
import { spawnedBy } from './thread-source'

/** A rollout, plain or compressed whole by Codex once idle (`.jsonl.zst`, docs/formats.md §2.2). */
const ROLLOUT_FILE = /^rollout-.*\.jsonl(\.zst)?$/
/** Where Codex keeps rollouts: by date, and flat once archived (`codex archive`, or the app's). */
const ROLLOUT_FOLDERS = ['sessions', 'archived_sessions']

/** `CODEX_HOME` when set, else `~/.codex`. */
export function codexRoots(env: NodeJS.ProcessEnv): string[] {
  const configured = env.CODEX_HOME?.trim()
  return [configured ? configured : join(env.HOME ?? homedir(), '.codex')]
}

/**
 * Every rollout under `<root>/sessions` (dated folders, or flat in older releases) and
 * `<root>/archived_sessions`, plain or compressed: one file per rollout (rollout-files.ts).
 */
export async function discoverCodexFiles(roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const files: HistoryFile[] = []
  const parents = new Map<HistoryFile, string>()
  for (const root of roots) {
    const names = await readThreadNames(root)
    const found: string[] = []
    for (const folder of ROLLOUT_FOLDERS) found.push(...(await walkFiles(join(root, folder), (name) => ROLLOUT_FILE.test(name), signal)))
    // A rotated segment is read as the start of the rollout that references it, never alone.
    for (const { path, contentKey } of oneFilePerRollout(found.filter((path) => !isRotatedSegment(path)))) {
      const meta = await (cache ? cache.facts(path, () => sessionMeta(path), currentFacts) : sessionMeta(path))
      if (meta) {
        const name = names.get(meta.id)
        const segments = meta.rotated ? segmentsOf(path) : undefined
        const file: HistoryFile = { source: 'codex', path, contentKey, sessionId: meta.id, role: 'main', cwd: meta.cwd, backupDir: null, ...(meta.forkedFrom ? { forkedFrom: { sessionId: meta.forkedFrom, messageUid: null } } : {}), ...(meta.startedAt !== undefined ? { startedAt: meta.startedAt } : {}), ...(name ? { title: name } : {}), ...(segments ? { segments } : {}) }
        files.push(file)
        if (meta.parentThreadId) parents.set(file, meta.parentThreadId)
      }
    }
  }
  // A rollout another one continues (a writer that started the thread's next segment beside it)
  // is read as that one's start, not alone.
  const continued = new Set(files.flatMap((file) => file.segments?.pieces.map((piece) => piece.path) ?? []))
  return asSubAgents(continued.size > 0 ? files.filter((file) => !continued.has(file.path)) : files, parents)
}

/**
 * A child thread (a Codex sub-agent) is a sub-agent file of its parent's session: `agentId` is
 * its own thread id, which the parent's spawn call names (tool-call-items.ts, turn-items.ts), and
 * `parentPath` the parent's rollout when discovery found it.
 */
function asSubAgents(files: HistoryFile[], parents: Map<HistoryFile, string>): HistoryFile[] {
  if (parents.size === 0) return files
  const pathOf = new Map(files.map((file) => [file.sessionId, file.path]))
  const parentOf = new Map([...parents].map(([file, parent]) => [file.sessionId, parent]))
  for (const [file, parent] of parents) {
    const parentPath = pathOf.get(parent)
    const root = rootOf(parent, parentOf)
    Object.assign(file, { role: 'sub-agent', parentSessionId: parent, agentId: file.sessionId, ...(parentPath ? { parentPath } : {}), ...(root !== parent ? { rootSessionId: root } : {}) })
  }
  return files
}

/** The thread at the top of a child's tree (a child of a child belongs where that one does). */
function rootOf(thread: string, parentOf: Map<string, string>): string {
  const seen = new Set<string>()
  let root = thread
  for (let up = parentOf.get(root); up !== undefined && !seen.has(up); up = parentOf.get(root)) {
    seen.add(root)
    root = up
  }
  return root
}

export async function discoverCodexWorkspace(workspacePath: string, roots: string[], signal?: AbortSignal, cache?: DiscoveryCache): Promise<HistoryFile[]> {
  const all = await discoverCodexFiles(roots, signal, cache)
  const inside = (file: HistoryFile) => file.cwd !== null && isWithin(file.cwd, workspacePath)
  const mainIds = new Set(all.filter((file) => file.role === 'main' && inside(file)).map((file) => file.sessionId))
  // A sub-agent belongs where its parent does, even if it ran in another folder (a worktree).
  return all.filter((file) => inside(file) || (file.role === 'sub-agent' && mainIds.has(file.rootSessionId ?? file.parentSessionId ?? '')))
}

/** What discovery reads of a rollout's first lines (`v`: the shape, so facts stored by an older reader are read again). */
interface RolloutFacts {
  v: 3
  id: string
  /** It continues a segment (rollout-segments.ts): a rotated rollout. */
  rotated: boolean
  cwd: string | null
  forkedFrom: string | null
  /** The thread that spawned this one (a Codex sub-agent). */
  parentThreadId: string | null
  startedAt?: number
}

const currentFacts = (facts: RolloutFacts | null) => facts === null || facts.v === 3

/**
 * The rollout's `session_meta` line: its id and cwd; in an old rollout (legacy-rollout.ts), its
 * header line and the cwd its first user message names. A file with neither is not a rollout.
 * A child thread names the thread that spawned it (thread-source.ts); a rotated rollout, the
 * segment it continues (rollout-segments.ts).
 */
async function sessionMeta(path: string): Promise<RolloutFacts | null> {
  const head = await readHeadObjects(path, 5).catch(() => [])
  const first = legacyLine(head[0])
  if (first?.kind === 'header') {
    const { id, timestamp, cwd } = first.meta
    const startedAt = Date.parse(timestamp)
    return { v: 3, id, rotated: false, cwd: typeof cwd === 'string' ? cwd : legacyCwd(head), forkedFrom: null, parentThreadId: null, ...(Number.isNaN(startedAt) ? {} : { startedAt }) }
  }
  for (const line of head) {
    const payload = line.payload as Record<string, unknown> | undefined
    if (line.type === 'session_meta' && payload && typeof payload.id === 'string') {
      return {
        v: 3,
        id: payload.id,
        rotated: head[1]?.type === 'rollout_reference' && referencedSegment(path, payload.id) !== null,
        cwd: typeof payload.cwd === 'string' ? payload.cwd : null,
        forkedFrom: typeof payload.forked_from_id === 'string' ? payload.forked_from_id : null,
        parentThreadId: spawnedBy(payload),
        ...(typeof payload.timestamp === 'string' && !Number.isNaN(Date.parse(payload.timestamp)) ? { startedAt: Date.parse(payload.timestamp) } : {})
      }
    }
  }
  return null
}
