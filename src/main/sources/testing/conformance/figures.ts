import { databaseOf } from '../../../store/raw-database'
import type { ImportReport } from '../../import-deps'
import type { Runtime } from '../../../runtime/runtime'

/** What a conformance test compares: Retrace's picture of an imported set, read from its store. */
export interface Figures {
  workspaces: number
  sessions: number
  /** Sessions per kind (main, sub-agent, branch, ...). */
  kinds: Record<string, number>
  /** Sessions with no parent: what the list shows at top level. */
  roots: number
  /** Sessions without a single message. */
  emptySessions: number
  /** Sub-agent sessions placed under a parent session. */
  subAgentsUnderParent: number
  /** Sub-agent sessions with no parent session (shown as roots). */
  unplacedSubAgents: number
  /** Sub-agents drawn off the very tool call (Task / Agent) that started them. */
  subAgentsAtTheirCall: number
  /** Branch sessions, by the agent's session id of the session they branch off: their own turns (not the copied ones). */
  branches: Record<string, number[]>
  messages: number
  roles: Record<string, number>
  toolCalls: number
  turns: number
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number }
  /** Lines or changes the import reported and left out, by reason (the text before any path). */
  skipped: Record<string, number>
  /** Turns of each top-level main session, by the agent's session id. */
  turnsBySession: Record<string, number>
  /** Usage of each top-level main session, by the agent's session id. */
  usageBySession: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>
}

type Row = Record<string, number | string | null>

/**
 * A branch starts with a copy of its parent's messages before the fork: they are counted once,
 * in the parent. Its own turns start at the turn of its first own message.
 */
const OWN_MESSAGES = `(SELECT m.* FROM messages m JOIN sessions s ON s.id = m.session_id
  WHERE NOT (s.kind = 'branch' AND s.fork_seq IS NOT NULL AND m.seq < s.fork_seq))`
const OWN_TURNS = `(s.turn_count - CASE WHEN s.kind = 'branch' AND s.fork_seq IS NOT NULL
  THEN coalesce((SELECT m.turn FROM messages m WHERE m.session_id = s.id AND m.seq = s.fork_seq), 1) - 1 ELSE 0 END)`

export function figuresOf(rt: Runtime, report: ImportReport): Figures {
  const db = databaseOf(rt.store)
  const one = (sql: string) => db.prepare(sql).get() as Row
  const all = (sql: string) => db.prepare(sql).all() as Row[]
  const counted = (sql: string) => Object.fromEntries(all(sql).map((row) => [String(row.k), Number(row.n)]))
  const usageOf = (row: Row) => ({ input: Number(row.input), output: Number(row.output), cacheRead: Number(row.cacheRead), cacheWrite: Number(row.cacheWrite) })
  const USAGE = 'input_tokens AS input, output_tokens AS output, cache_read_tokens AS cacheRead, cache_write_tokens AS cacheWrite'
  const totals = one(`SELECT count(*) AS sessions, coalesce(sum(${OWN_TURNS}), 0) AS turns,
    coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output,
    coalesce(sum(cache_read_tokens), 0) AS cacheRead, coalesce(sum(cache_write_tokens), 0) AS cacheWrite,
    coalesce(sum(parent_id IS NULL), 0) AS roots, coalesce(sum(message_count = 0), 0) AS empty FROM sessions s`)
  const branches: Record<string, number[]> = {}
  for (const row of all(`SELECT p.source_session_id AS parent, ${OWN_TURNS} AS turns FROM sessions s JOIN sessions p ON p.id = s.parent_id
    WHERE s.kind = 'branch' ORDER BY turns`)) {
    ;(branches[String(row.parent)] ??= []).push(Number(row.turns))
  }
  const skipped: Record<string, number> = {}
  // Lines not imported and file changes not journaled alike: what the import left out.
  for (const { reason } of [...report.skipped, ...report.changesNotJournaled]) {
    // Titles and ids vary per line; the kind of reason does not.
    const general = reason.replace(/"[^"]*"/g, '"…"').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    const kind = general.split(/:|\(/)[0]?.trim() ?? general
    skipped[kind] = (skipped[kind] ?? 0) + 1
  }
  const mains = all(`SELECT source_session_id AS id, turn_count AS turns, ${USAGE} FROM sessions s WHERE parent_id IS NULL AND kind = 'main' AND source_session_id IS NOT NULL`)
  return {
    workspaces: Number(one('SELECT count(*) AS n FROM workspaces').n),
    sessions: Number(totals.sessions),
    kinds: counted('SELECT kind AS k, count(*) AS n FROM sessions GROUP BY kind'),
    roots: Number(totals.roots),
    emptySessions: Number(totals.empty),
    subAgentsUnderParent: Number(one("SELECT count(*) AS n FROM sessions WHERE kind = 'sub-agent' AND parent_id IS NOT NULL").n),
    unplacedSubAgents: Number(one("SELECT count(*) AS n FROM sessions WHERE kind = 'sub-agent' AND parent_id IS NULL").n),
    subAgentsAtTheirCall: Number(
      one(`SELECT count(*) AS n FROM sessions s JOIN messages m ON m.session_id = s.parent_id AND m.seq = s.fork_seq
        WHERE s.kind = 'sub-agent' AND m.role = 'tool_call' AND m.tool_name IN ('Task', 'Agent')`).n
    ),
    branches,
    messages: Number(one(`SELECT count(*) AS n FROM ${OWN_MESSAGES}`).n),
    roles: counted(`SELECT role AS k, count(*) AS n FROM ${OWN_MESSAGES} GROUP BY role`),
    toolCalls: Number(one(`SELECT count(*) AS n FROM ${OWN_MESSAGES} WHERE role = 'tool_call'`).n),
    turns: Number(totals.turns),
    usage: usageOf(totals),
    skipped,
    turnsBySession: Object.fromEntries(mains.map((row) => [String(row.id), Number(row.turns)])),
    usageBySession: Object.fromEntries(mains.map((row) => [String(row.id), usageOf(row)]))
  }
}
