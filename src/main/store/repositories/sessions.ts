import { keepsNoFileContent, RetraceError, type ChildRef, type SessionKind, type SessionRef, type SessionSummary } from '../../../shared/contract'
import type { Db } from '../database'
import { toFtsQuery } from '../fts-query'
import { PRICES_DATE } from '../../pricing/prices'
import { sessionInView, subfolderOf } from './workspace-view'
import { sessionLabel, type TitleOrigin } from './session-label'

/** A session as stored, with the internal row ids the other repositories key on. */
export interface SessionRecord extends SessionSummary {
  rowId: number
  parentRowId: number | null
  predecessorRowId: number | null
  forkSeq: number | null
  contextStartSeq: number
  cwd: string | null
  sourceSessionId: string | null
  /** What the session's tokens cost at the price table's prices (migration 020); null: no priced model. */
  pricedCostUsd: number | null
  /** What stands for a missing title, made from what the session did ('' when titled, or nothing to go by); `title` stays the stored one. */
  label: string
}

export interface NewSession {
  uid: string
  workspaceId: number
  source: string
  sourceSessionId?: string | null
  title: string
  kind: SessionKind
  parentRowId?: number | null
  /** The source's id of the session this one hangs below (kept while that session is not imported). */
  parentSourceId?: string | null
  forkSeq?: number | null
  depth?: number
  predecessorRowId?: number | null
  model?: string | null
  /** A sub-agent's kind, as its source names it (Claude Code's `agentType`). */
  agentType?: string | null
  cwd?: string | null
  createdAt: number
  /** A line the user left by rewinding inside the agent (see migration 010). */
  rewoundInAgent?: boolean
}

export interface SessionListFilter {
  workspaceId: number
  query?: string | undefined
  source?: string | undefined
  /** Also list warm-ups (left out by default). */
  includeWarmups?: boolean | undefined
  cursor?: string | null | undefined
  limit: number
  /** The folder's view (R59: its subfolders' sessions too, workspace-view.ts), not only what its workspace stores. */
  withSubfolders?: boolean | undefined
}

/** Counters and usage folded into a session after messages are appended. */
export interface SessionProgress {
  messageCount: number
  turnCount: number
  updatedAt: number
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  costUsd: number | null
  /** The tokens without a recorded cost at the price table's prices (null or left out: none priced). */
  pricedCostUsd?: number | null
  model: string | null
}

interface SessionRow {
  id: number
  uid: string
  workspace_id: number
  source: string
  source_session_id: string | null
  title: string
  kind: SessionKind
  parent_id: number | null
  parent_uid: string | null
  parent_title: string | null
  fork_turn: number | null
  parent_source_id: string | null
  warmup: number
  fork_seq: number | null
  depth: number
  predecessor_id: number | null
  predecessor_uid: string | null
  predecessor_title: string | null
  status: 'active' | 'closed'
  model: string | null
  agent_type: string | null
  cwd: string | null
  created_at: number
  updated_at: number
  message_count: number
  turn_count: number
  context_start_seq: number
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cost_usd: number | null
  priced_cost_usd: number | null
  priced_with: string | null
  rewound_in_agent: number
  merge_count: number
  merged_at: number | null
  unmerged_count: number | null
  source_gone_at: number | null
  recorded_count: number
  not_captured_count: number
  uncaptured_count: number
  /** Only for an untitled session: its first user and system messages' roles and starts, as a JSON array of pairs. */
  first_prompts: string | null
  /** Only for an untitled session: its first tool call's name and input's start, as a JSON object. */
  first_tool: string | null
  /** Only in lists: the subfolder the session is stored under (workspace-view.ts). */
  folder?: string | null
}

/** The shortest start of a session id that is looked up as one (git's shortest abbreviation too). */
const MIN_ID_PREFIX = 4

// A session's rewind coverage, as three counts by index ranges (journal_scopes_by_session with
// journal_entries_by_scope, not_captured_by_session, the checkpoints' unique (session_id, turn)):
// each a covering-index count inside the list's one query, so a page costs no query per session.
export const COVERAGE_COLUMNS = `(SELECT count(*) FROM journal_scopes js JOIN journal_entries e ON e.scope_id = js.id
      WHERE js.session_id = s.id AND js.kind = 'turn') AS recorded_count,
    (SELECT count(*) FROM not_captured_changes WHERE session_id = s.id) AS not_captured_count,
    (SELECT coalesce(sum(uncaptured_commands), 0) FROM checkpoints WHERE session_id = s.id) AS uncaptured_count`

// What an untitled session did, for its label (session-label.ts): its first few prompts (and
// system lines, where Claude Code files a slash command the user ran) and its first tool call, each cut short, read by the messages' (session_id, seq) key. Titled sessions
// (most) skip both subqueries.
export const LABEL_COLUMNS = `CASE WHEN s.title = '' THEN (SELECT json_group_array(json_array(role, p)) FROM (SELECT m.role, substr(m.content, 1, 600) AS p
      FROM messages m WHERE m.session_id = s.id AND m.role IN ('user', 'system') AND m.content <> '' ORDER BY m.seq LIMIT 4)) END AS first_prompts,
    CASE WHEN s.title = '' THEN (SELECT json_object('name', m.tool_name, 'input', substr(coalesce(m.tool_input, ''), 1, 600)) FROM messages m
      WHERE m.session_id = s.id AND m.role = 'tool_call' ORDER BY m.seq LIMIT 1) END AS first_tool`

// The linked sessions' ids and titles by subquery: the same plan as LEFT JOINs on the primary
// key, but a lookup by uid is several times faster without the joins, and an import looks
// sessions up a few times per file. The fork turn is the parent's last checkpoint that opened
// at or before the branch point (as `turnAtSeq` reads it), so the list can say "from turn 4"
// without loading the parent's checkpoints.
// A branch's merges ride along (by session_merges_by_branch; messages are counted only for a
// branch merged before), so the list, header and card say "merged", and whether anything was
// added since, without another query from the window. Whether the agent deleted the session's
// file rides along too (a partial index: most sessions have no such row).
const SELECT = `SELECT s.*, (SELECT uid FROM sessions WHERE id = s.parent_id) AS parent_uid,
    (SELECT title FROM sessions WHERE id = s.parent_id) AS parent_title,
    (SELECT uid FROM sessions WHERE id = s.predecessor_id) AS predecessor_uid,
    (SELECT title FROM sessions WHERE id = s.predecessor_id) AS predecessor_title,
    (SELECT c.turn FROM checkpoints c WHERE c.session_id = s.parent_id AND c.messages_before <= s.fork_seq
      ORDER BY c.turn DESC LIMIT 1) AS fork_turn,
    (SELECT count(*) FROM session_merges WHERE branch_id = s.id) AS merge_count,
    (SELECT max(created_at) FROM session_merges WHERE branch_id = s.id) AS merged_at,
    CASE WHEN EXISTS (SELECT 1 FROM session_merges WHERE branch_id = s.id) THEN (SELECT count(*) FROM messages WHERE session_id = s.id
      AND seq > (SELECT coalesce(max(through_seq), -1) FROM session_merges WHERE branch_id = s.id)) END AS unmerged_count,
    (SELECT max(source_gone_at) FROM import_files WHERE session_id = s.id AND source_gone_at IS NOT NULL) AS source_gone_at,
    ${COVERAGE_COLUMNS},
    ${LABEL_COLUMNS}
  FROM sessions s`

/**
 * Every session below `@rowId` one deeper than its parent: run after a session moved in the tree
 * (a sub-agent linked below the agent that started it, orphans adopted), since the sessions
 * already below it moved with it. Bounded, so that a malformed loop of links cannot run forever.
 */
export const REDEPTH_DESCENDANTS = `WITH RECURSIVE below(id, depth) AS (
    SELECT c.id, p.depth + 1 FROM sessions c JOIN sessions p ON p.id = c.parent_id WHERE c.parent_id = @rowId
    UNION ALL
    SELECT s.id, below.depth + 1 FROM sessions s JOIN below ON s.parent_id = below.id WHERE below.depth < 64)
  UPDATE sessions SET depth = (SELECT max(depth) FROM below WHERE below.id = sessions.id)
  WHERE id IN (SELECT id FROM below) AND depth <> (SELECT max(depth) FROM below WHERE below.id = sessions.id)`

/** Sessions and their tree links (parent, predecessor). */
export class SessionRepository {
  private readonly insertStmt
  private readonly byUidStmt
  private readonly childrenStmt
  private readonly refStmt
  private readonly successorsStmt
  private readonly progressStmt
  private readonly contextStartStmt
  private readonly statusStmt
  private readonly titleStmt
  private readonly bySourceIdStmt
  private readonly matchingStmt
  private readonly linkStmt
  private readonly redepthStmt
  private readonly latestOfSourceStmt
  private readonly deleteStmt
  private readonly predecessorStmt
  private readonly listStatements = new Map<string, ReturnType<Db['prepare']>>()

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO sessions (uid, workspace_id, source, source_session_id, title, kind, parent_id, parent_source_id, fork_seq, depth,
         predecessor_id, model, agent_type, cwd, created_at, updated_at, rewound_in_agent)
       VALUES (@uid, @workspaceId, @source, @sourceSessionId, @title, @kind, @parentRowId, @parentSourceId, @forkSeq, @depth,
         @predecessorRowId, @model, @agentType, @cwd, @createdAt, @createdAt, @rewoundInAgent)`
    )
    this.byUidStmt = db.prepare(`${SELECT} WHERE s.uid = ?`)
    this.refStmt = db.prepare('SELECT uid, title, kind FROM sessions WHERE id = ?')
    this.childrenStmt = db.prepare('SELECT uid, title, kind, fork_seq FROM sessions WHERE parent_id = ? ORDER BY created_at, id')
    this.successorsStmt = db.prepare('SELECT uid, title, kind FROM sessions WHERE predecessor_id = ? ORDER BY created_at, id')
    this.progressStmt = db.prepare(
      `UPDATE sessions SET message_count = @messageCount, turn_count = @turnCount, updated_at = @updatedAt,
         input_tokens = @inputTokens, output_tokens = @outputTokens, cache_read_tokens = @cacheReadTokens,
         cache_write_tokens = @cacheWriteTokens, cost_usd = @costUsd, priced_cost_usd = @pricedCostUsd, priced_with = @pricedWith,
         model = coalesce(@model, model)
       WHERE id = @rowId`
    )
    this.contextStartStmt = db.prepare('UPDATE sessions SET context_start_seq = ? WHERE id = ?')
    this.statusStmt = db.prepare('UPDATE sessions SET status = ? WHERE id = ?')
    this.titleStmt = db.prepare('UPDATE sessions SET title = ? WHERE id = ?')
    this.bySourceIdStmt = db.prepare(`${SELECT} WHERE s.workspace_id = ? AND s.source = ? AND s.source_session_id = ?`)
    this.matchingStmt = db.prepare(
      `${SELECT} WHERE s.source_session_id = @ref
         OR (length(@ref) >= ${MIN_ID_PREFIX} AND (substr(s.uid, 1, length(@ref)) = @ref OR substr(s.source_session_id, 1, length(@ref)) = @ref))
       ORDER BY s.updated_at DESC, s.id DESC LIMIT 20`
    )
    this.linkStmt = db.prepare('UPDATE sessions SET parent_id = @parentRowId, fork_seq = @forkSeq, depth = @depth WHERE id = @rowId')
    this.redepthStmt = db.prepare(REDEPTH_DESCENDANTS)
    this.latestOfSourceStmt = db.prepare(
      'SELECT uid FROM sessions WHERE workspace_id = ? AND source = ? AND kind = ? AND id != ? AND created_at <= ? ORDER BY updated_at DESC, id DESC LIMIT 1'
    )
    this.deleteStmt = db.prepare('DELETE FROM sessions WHERE id = ?')
    this.predecessorStmt = db.prepare('UPDATE sessions SET predecessor_id = ? WHERE id = ? AND predecessor_id IS NULL')
  }

  insert(session: NewSession): number {
    const result = this.insertStmt.run({
      sourceSessionId: null,
      parentRowId: null,
      parentSourceId: null,
      forkSeq: null,
      depth: 0,
      predecessorRowId: null,
      model: null,
      agentType: null,
      cwd: null,
      ...session,
      rewoundInAgent: session.rewoundInAgent ? 1 : 0
    })
    return Number(result.lastInsertRowid)
  }

  get(uid: string): SessionRecord | undefined {
    const row = this.byUidStmt.get(uid) as SessionRow | undefined
    return row && toRecord(row)
  }

  require(uid: string): SessionRecord {
    const session = this.get(uid)
    if (!session) throw new RetraceError('NOT_FOUND', `No session with id ${uid}. It may have been removed; reload the session list.`)
    return session
  }

  /** A session by its id in its source (an imported file's session, a hook's session id). */
  bySourceId(workspaceId: number, source: string, sourceSessionId: string): SessionRecord | undefined {
    const row = this.bySourceIdStmt.get(workspaceId, source, sourceSessionId) as SessionRow | undefined
    return row && toRecord(row)
  }

  /**
   * Sessions a person may mean by `ref` when it is not a session id: the sessions whose agent
   * gave them that id (a hook's --session, an imported file's session), and those whose id or
   * agent's id starts with it (at least 4 characters, as one copies the start of a UUID). Most
   * recent first, at most 20.
   */
  matching(ref: string): SessionRecord[] {
    return (this.matchingStmt.all({ ref }) as SessionRow[]).map(toRecord)
  }

  /** Attach a session to its parent once the link is known (an imported sub-agent). */
  link(rowId: number, link: { parentRowId: number; forkSeq: number | null; depth: number }): void {
    this.linkStmt.run({ rowId, ...link })
    this.redepthStmt.run({ rowId })
  }

  /** The most recently active other session of a source and kind, created no later than `before`. */
  /** Link a session to the one it continues (a reset learnt after the session was made); an existing link stays. */
  setPredecessor(rowId: number, predecessorRowId: number): void {
    this.predecessorStmt.run(predecessorRowId, rowId)
  }

  latestOfSource(workspaceId: number, source: string, kind: SessionKind, exceptRowId: number, before: number): string | undefined {
    return (this.latestOfSourceStmt.get(workspaceId, source, kind, exceptRowId, before) as { uid: string } | undefined)?.uid
  }

  /** Remove a session (its messages, checkpoints and attachments go with it). */
  delete(rowId: number): void {
    this.deleteStmt.run(rowId)
  }

  /** The title and kind of a session by row id (for tree links). */
  ref(rowId: number | null): SessionRef | null {
    if (rowId === null) return null
    const row = this.refStmt.get(rowId) as { uid: string; title: string; kind: SessionKind } | undefined
    return row ? toRef(row) : null
  }

  children(rowId: number): ChildRef[] {
    return (this.childrenStmt.all(rowId) as { uid: string; title: string; kind: SessionKind; fork_seq: number | null }[]).map((row) => ({ ...toRef(row), forkSeq: row.fork_seq }))
  }

  successors(rowId: number): SessionRef[] {
    return (this.successorsStmt.all(rowId) as { uid: string; title: string; kind: SessionKind }[]).map(toRef)
  }

  saveProgress(rowId: number, progress: SessionProgress): void {
    this.progressStmt.run({ rowId, ...progress, pricedCostUsd: progress.pricedCostUsd ?? null, pricedWith: PRICES_DATE })
  }

  setContextStart(rowId: number, seq: number): void {
    this.contextStartStmt.run(seq, rowId)
  }

  setTitle(rowId: number, title: string): void {
    this.titleStmt.run(title, rowId)
  }

  setStatus(rowId: number, status: 'active' | 'closed'): void {
    this.statusStmt.run(status, rowId)
  }

  list(filter: SessionListFilter): { items: SessionRecord[]; nextCursor: string | null } {
    const after = filter.cursor ? decodeCursor(filter.cursor) : null
    const match = filter.query?.trim() ? toFtsQuery(filter.query) : null
    const like = filter.query?.trim() ? `%${escapeLike(filter.query.trim())}%` : null
    const statement = this.listStatement(Boolean(filter.source), Boolean(after), Boolean(like), !filter.includeWarmups)
    const rows = statement.all({
      workspaceId: filter.workspaceId,
      subfolders: filter.withSubfolders === true ? 1 : 0,
      source: filter.source,
      updatedAt: after?.updatedAt,
      id: after?.id,
      like,
      match: match ?? '""',
      limit: filter.limit + 1
    }) as SessionRow[]
    const items = rows.slice(0, filter.limit).map(toRecord)
    const last = items.at(-1)
    const nextCursor = rows.length > filter.limit && last ? encodeCursor(last.updatedAt, last.rowId) : null
    return { items, nextCursor }
  }

  private listStatement(bySource: boolean, paged: boolean, byText: boolean, withoutWarmups: boolean) {
    const key = `${bySource}|${paged}|${byText}|${withoutWarmups}`
    let statement = this.listStatements.get(key)
    if (!statement) {
      statement = this.db.prepare(sessionListSql({ bySource, paged, byText, withoutWarmups }))
      this.listStatements.set(key, statement)
    }
    return statement
  }
}

/**
 * The session list query for a combination of filters (exported so the benchmark runs the very
 * same SQL bare). Parameters: @workspaceId, @subfolders (workspace-view.ts), @source, @updatedAt/@id (keyset), @like, @match, @limit.
 */
export function sessionListSql(filters: { bySource: boolean; paged: boolean; byText: boolean; withoutWarmups?: boolean }): string {
  const where = [sessionInView('s', '@workspaceId')]
  if (filters.bySource) where.push('s.source = @source')
  if (filters.withoutWarmups) where.push('s.warmup = 0')
  if (filters.paged) where.push('(s.updated_at, s.id) < (@updatedAt, @id)')
  if (filters.byText) {
    where.push(`(s.title LIKE @like ESCAPE '\\' OR s.uid LIKE @like ESCAPE '\\' OR s.id IN (
      SELECT m.session_id FROM messages_fts JOIN messages m INDEXED BY messages_session_by_id ON m.id = messages_fts.rowid
      WHERE messages_fts MATCH @match))`)
  }
  return `${SELECT.replace('SELECT s.*,', `SELECT s.*, ${subfolderOf('s.workspace_id', '@workspaceId')} AS folder,`)} WHERE ${where.join(' AND ')} ORDER BY s.updated_at DESC, s.id DESC LIMIT @limit`
}

function encodeCursor(updatedAt: number, id: number): string {
  return `${updatedAt}.${id}`
}

function decodeCursor(cursor: string): { updatedAt: number; id: number } {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor)
  if (!match) throw new RetraceError('VALIDATION', 'The session list cursor is not valid; start again from the first page.')
  return { updatedAt: Number(match[1]), id: Number(match[2]) }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

function toRef(row: { uid: string; title: string; kind: SessionKind }): SessionRef {
  return { id: row.uid, title: row.title, kind: row.kind }
}

/** A session's shown title and where it comes from, from a row with LABEL_COLUMNS. */
export function shownTitle(row: { title: string; warmup: number; first_prompts: string | null; first_tool: string | null }): { label: string; titleOrigin: TitleOrigin } {
  const label = row.title === '' ? sessionLabel(parseJson(row.first_prompts), parseJson(row.first_tool), row.warmup === 1) : ''
  return { label, titleOrigin: row.title !== '' ? 'own' : label !== '' ? 'derived' : 'none' }
}

function toRecord(row: SessionRow): SessionRecord {
  const { label, titleOrigin } = shownTitle(row)
  return {
    rowId: row.id,
    id: row.uid,
    workspaceId: row.workspace_id,
    source: row.source,
    sourceSessionId: row.source_session_id,
    title: row.title,
    kind: row.kind,
    parentId: row.parent_uid,
    parentTitle: row.parent_title,
    forkTurn: row.fork_turn,
    parentRowId: row.parent_id,
    missingParent: row.parent_id === null ? row.parent_source_id : null,
    warmup: row.warmup === 1,
    predecessorId: row.predecessor_uid,
    predecessorTitle: row.predecessor_title,
    predecessorRowId: row.predecessor_id,
    forkSeq: row.fork_seq,
    depth: row.depth,
    status: row.status,
    model: row.model,
    ...(row.agent_type !== null ? { agentType: row.agent_type } : {}),
    cwd: row.cwd,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: row.message_count,
    turnCount: row.turn_count,
    rewoundInAgent: row.rewound_in_agent === 1,
    contextStartSeq: row.context_start_seq,
    merged: row.merged_at === null ? null : { count: row.merge_count, lastAt: row.merged_at, newMessages: row.unmerged_count ?? 0 },
    sourceDeletedAt: row.source_gone_at,
    ...(row.folder ? { folder: row.folder } : {}),
    pricedCostUsd: row.priced_cost_usd,
    label,
    titleOrigin,
    costPricedOn: row.priced_cost_usd === null ? null : row.priced_with,
    usage: {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      cacheReadTokens: row.cache_read_tokens,
      cacheWriteTokens: row.cache_write_tokens,
      costUsd: row.cost_usd
    },
    coverage: {
      recorded: row.recorded_count,
      notCaptured: row.not_captured_count,
      uncapturedCommands: row.uncaptured_count,
      agentKeepsNoContent: keepsNoFileContent(row.source)
    }
  }
}

/**
 * What a session cost: what its source recorded (Cline, Aider, OpenCode… keep their own bill),
 * plus its other tokens at the price table's prices; null when neither is known.
 */
export function spentUsd(record: Pick<SessionRecord, 'usage' | 'pricedCostUsd'>): number | null {
  const { costUsd } = record.usage
  if (costUsd === null && record.pricedCostUsd === null) return null
  return (costUsd ?? 0) + (record.pricedCostUsd ?? 0)
}

function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The transport shape: drops the storage-only fields. */
export function toSessionSummary(record: SessionRecord): SessionSummary {
  return {
    id: record.id,
    workspaceId: record.workspaceId,
    source: record.source,
    title: record.title || record.label,
    titleOrigin: record.titleOrigin,
    kind: record.kind,
    parentId: record.parentId,
    parentTitle: record.parentTitle,
    forkTurn: record.forkTurn,
    missingParent: record.missingParent,
    warmup: record.warmup,
    predecessorId: record.predecessorId,
    predecessorTitle: record.predecessorTitle,
    depth: record.depth,
    status: record.status,
    model: record.model,
    ...(record.agentType !== undefined ? { agentType: record.agentType } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    messageCount: record.messageCount,
    turnCount: record.turnCount,
    rewoundInAgent: record.rewoundInAgent,
    merged: record.merged,
    sourceDeletedAt: record.sourceDeletedAt,
    ...(record.folder !== undefined ? { folder: record.folder } : {}),
    costPricedOn: record.costPricedOn,
    usage: { ...record.usage, costUsd: spentUsd(record) },
    coverage: record.coverage
  }
}
