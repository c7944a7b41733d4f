import { z } from 'zod'
import { RewindCoverageSchema, SessionIdSchema, SessionKindSchema, SessionMergedSchema, SessionStatusSchema, SourceIdSchema, Timestamp, TitleOriginSchema } from './domain'

/**
 * One session as a node of the workspace's session tree: enough to draw and lay it out,
 * nothing that needs a second query per node.
 */
export const TreeNodeSchema = z.object({
  id: SessionIdSchema,
  /** Its own title, or a label made from what it did (see SessionSummary.titleOrigin). */
  title: z.string(),
  titleOrigin: TitleOriginSchema,
  kind: SessionKindSchema,
  source: SourceIdSchema,
  /** The session this one branched off (forks, sub-agents), if it is in the tree. */
  parentId: SessionIdSchema.nullable(),
  /** The agent's own id of a parent this session names but which is not in Retrace (see SessionSummary). */
  missingParent: z.string().nullable(),
  /** Start-up work rather than the user's (see SessionSummary.warmup): drawn only on request. */
  warmup: z.boolean(),
  /** Display seq in the parent at which this session branched off. */
  forkSeq: z.number().int().nonnegative().nullable(),
  /** The session this one continues after a reset (`/clear`, `/new`). */
  predecessorId: SessionIdSchema.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  turnCount: z.number().int().nonnegative(),
  messageCount: z.number().int().nonnegative(),
  /**
   * Distinct workspace paths the session's turns created, changed, renamed or deleted. The
   * journal stores snapshots, not line counts (those come from diffing blobs), so a count of
   * files is what one query can give for thousands of sessions.
   */
  filesChanged: z.number().int().nonnegative(),
  /** What the session cost (as SessionSummary.usage.costUsd): recorded by the agent or priced by model; null when unknown. */
  costUsd: z.number().nonnegative().nullable(),
  status: SessionStatusSchema,
  /**
   * For a branch: the parent's turn it branched from (the last turn of the parent opening at or
   * before its fork point), as `SessionSummary.forkTurn`; the turns before it are the parent's, copied.
   */
  forkTurn: z.number().int().positive().nullable(),
  /** A line the user left by rewinding inside the agent (see SessionSummary). */
  rewoundInAgent: z.boolean(),
  /** A branch merged back (see SessionSummary.merged); null if never merged. */
  merged: SessionMergedSchema.nullable(),
  /** How much of the session a rewind can put back (as SessionSummary.coverage), for the graph card's badge. */
  coverage: RewindCoverageSchema,
  /** The subfolder the session ran in, when it is stored under that subfolder's workspace (see SessionSummary.folder). */
  folder: z.string().optional()
})
export type TreeNode = z.infer<typeof TreeNodeSchema>

/** A branch merged back into a session (drawn as an edge from the branch to `intoId`). */
export const TreeMergeSchema = z.object({
  branchId: SessionIdSchema,
  intoId: SessionIdSchema,
  mode: z.enum(['append', 'replace']),
  createdAt: Timestamp
})
export type TreeMerge = z.infer<typeof TreeMergeSchema>

export const SessionTreeSchema = z.object({
  /** Every session of the workspace, oldest first. */
  nodes: z.array(TreeNodeSchema),
  /** Every merge between two of those sessions, oldest first. */
  merges: z.array(TreeMergeSchema)
})
export type SessionTree = z.infer<typeof SessionTreeSchema>
