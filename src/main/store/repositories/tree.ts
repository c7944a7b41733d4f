import { keepsNoFileContent, type SessionKind, type TreeMerge, type TreeNode } from '../../../shared/contract'
import type { Db } from '../database'
import { COVERAGE_COLUMNS, LABEL_COLUMNS, shownTitle } from './sessions'
import { sessionInView, subfolderOf } from './workspace-view'

interface TreeRow {
  uid: string
  title: string
  kind: SessionKind
  source: string
  parent_uid: string | null
  missing_parent: string | null
  warmup: number
  fork_seq: number | null
  predecessor_uid: string | null
  created_at: number
  updated_at: number
  turn_count: number
  message_count: number
  files_changed: number
  cost_usd: number | null
  status: 'active' | 'closed'
  rewound_in_agent: number
  fork_turn: number | null
  merge_count: number
  merged_at: number | null
  unmerged_count: number | null
  recorded_count: number
  not_captured_count: number
  uncaptured_count: number
  first_prompts: string | null
  first_tool: string | null
  folder: string | null
}

interface MergeRow {
  branch_uid: string
  into_uid: string
  mode: 'append' | 'replace'
  created_at: number
}

// Links are resolved to uids only when both ends are in the view (the workspace and its
// subfolders' workspaces, workspace-view.ts): the tree is drawn per view, and an edge to a node that is not drawn would dangle. Files changed are the
// distinct paths of the session's own turn scopes (a rewind's scope is not the session's work);
// the correlated subquery walks journal_scopes_by_session and journal_entries_by_scope. Rewind
// coverage is counted as the session list counts it (COVERAGE_COLUMNS), by the same indexes; the cost
// is what the agent recorded plus what Retrace priced, as spentUsd() adds them.
const NODES_SQL = `SELECT s.uid, s.title, s.kind, s.source, p.uid AS parent_uid,
    CASE WHEN s.parent_id IS NULL THEN s.parent_source_id END AS missing_parent, s.warmup, s.fork_seq, pr.uid AS predecessor_uid,
    ${subfolderOf('s.workspace_id', '@workspaceId')} AS folder,
    s.created_at, s.updated_at, s.turn_count, s.message_count, s.status,
    CASE WHEN s.cost_usd IS NOT NULL OR s.priced_cost_usd IS NOT NULL THEN coalesce(s.cost_usd, 0) + coalesce(s.priced_cost_usd, 0) END AS cost_usd, s.rewound_in_agent,
    (SELECT count(DISTINCT e.path) FROM journal_scopes js JOIN journal_entries e ON e.scope_id = js.id
      WHERE js.session_id = s.id AND js.kind = 'turn') AS files_changed,
    CASE WHEN s.kind = 'branch' AND s.fork_seq IS NOT NULL THEN
      (SELECT max(c.turn) FROM checkpoints c WHERE c.session_id = s.parent_id AND c.messages_before <= s.fork_seq) END AS fork_turn,
    (SELECT count(*) FROM session_merges WHERE branch_id = s.id) AS merge_count,
    (SELECT max(created_at) FROM session_merges WHERE branch_id = s.id) AS merged_at,
    CASE WHEN EXISTS (SELECT 1 FROM session_merges WHERE branch_id = s.id) THEN (SELECT count(*) FROM messages WHERE session_id = s.id
      AND seq > (SELECT coalesce(max(through_seq), -1) FROM session_merges WHERE branch_id = s.id)) END AS unmerged_count,
    ${COVERAGE_COLUMNS},
    ${LABEL_COLUMNS}
  FROM sessions s
  LEFT JOIN sessions p ON p.id = s.parent_id AND ${sessionInView('p', '@workspaceId')}
  LEFT JOIN sessions pr ON pr.id = s.predecessor_id AND ${sessionInView('pr', '@workspaceId')}
  WHERE ${sessionInView('s', '@workspaceId')}
  ORDER BY s.created_at, s.id`

const MERGES_SQL = `SELECT b.uid AS branch_uid, i.uid AS into_uid, m.mode, m.created_at
  FROM session_merges m
  JOIN sessions b ON b.id = m.branch_id
  JOIN sessions i ON i.id = m.into_id
  WHERE ${sessionInView('b', '@workspaceId')} AND ${sessionInView('i', '@workspaceId')}
  ORDER BY m.created_at, m.id`

/** The whole session graph of a workspace, in two queries (nodes with their counts, merges). */
export class TreeRepository {
  private readonly nodesStmt
  private readonly mergesStmt

  constructor(db: Db) {
    this.nodesStmt = db.prepare(NODES_SQL)
    this.mergesStmt = db.prepare(MERGES_SQL)
  }

  nodes(workspaceId: number, withSubfolders = false): TreeNode[] {
    return (this.nodesStmt.all({ workspaceId, subfolders: withSubfolders ? 1 : 0 }) as TreeRow[]).map((row) => this.node(row))
  }

  private node(row: TreeRow): TreeNode {
    const { label, titleOrigin } = shownTitle(row)
    return {
      id: row.uid,
      ...(row.folder ? { folder: row.folder } : {}),
      title: row.title || label,
      titleOrigin,
      kind: row.kind,
      source: row.source,
      parentId: row.parent_uid,
      missingParent: row.missing_parent,
      warmup: row.warmup === 1,
      forkSeq: row.fork_seq,
      predecessorId: row.predecessor_uid,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      turnCount: row.turn_count,
      messageCount: row.message_count,
      filesChanged: row.files_changed,
      costUsd: row.cost_usd,
      status: row.status,
      rewoundInAgent: row.rewound_in_agent === 1,
      forkTurn: row.fork_turn,
      merged: row.merged_at === null ? null : { count: row.merge_count, lastAt: row.merged_at, newMessages: row.unmerged_count ?? 0 },
      coverage: { recorded: row.recorded_count, notCaptured: row.not_captured_count, uncapturedCommands: row.uncaptured_count, agentKeepsNoContent: keepsNoFileContent(row.source) }
    }
  }

  merges(workspaceId: number, withSubfolders = false): TreeMerge[] {
    return (this.mergesStmt.all({ workspaceId, subfolders: withSubfolders ? 1 : 0 }) as MergeRow[]).map((row) => ({
      branchId: row.branch_uid,
      intoId: row.into_uid,
      mode: row.mode,
      createdAt: row.created_at
    }))
  }
}
