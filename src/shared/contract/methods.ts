import { z } from 'zod'
import {
  FolderEntrySchema,
  MessageSchema,
  SearchHitSchema,
  SessionDetailSchema,
  SessionIdSchema,
  SessionSummarySchema,
  SourceIdSchema,
  TranscriptKindSchema,
  WorkspaceIdSchema,
  WorkspaceSummarySchema
} from './domain'
import { AgentStateSchema } from './agent-state'
import { ImportReportSchema, ImportStatusSchema, SourceFolderSchema, SourceInfoSchema, UnreadCountSchema } from './imports'
import type { MethodSpec } from './method-spec'
import { agentMethods } from './methods-agents'
import { blameMethods } from './methods-blame'
import { exportMethods } from './methods-export'
import { journalMethods } from './methods-journal'
import { usageMethods } from './methods-usage'
import { ImportSourceSchema } from './sources'
import { RetentionChangeSchema, RetentionStatusSchema } from './retention'
import { SessionTreeSchema } from './tree'
import { ForgetPlanSchema, WorkspaceListingSchema } from './workspace-listing'

function method<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodSpec<I, O> {
  return { input, output }
}

/** Opaque paging cursor; its meaning belongs to the method that issued it. */
const Cursor = z.string().min(1).max(200)
const NoInput = z.object({}).strict()
/** The agents Retrace can write a session for, to resume there. */
export const ResumableAgentSchema = z.enum(['claude-code', 'codex'])

/**
 * Every call the renderer (Electron or web) or any other client can make. Names are
 * `domain.verb`; both bindings and the preload are generated from this object, so a method
 * that is not here does not exist.
 */
export const methods = {
  /** Name, version, binding and data folder of the running app. */
  'app.info': method(
    NoInput,
    z.object({
      name: z.string(),
      version: z.string(),
      binding: z.enum(['electron', 'web']),
      dataDir: z.string(),
      platform: z.string(),
      /** Electron can show a native folder dialog; the web binding offers `folders.list` instead. */
      nativeFolderDialog: z.boolean()
    })
  ),

  /** Workspaces opened before, most recently opened first, with session counts and last activity. */
  'workspaces.listRecent': method(
    z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict(),
    z.object({ items: z.array(WorkspaceSummarySchema) })
  ),

  /**
   * Every workspace: those in Retrace's store and every folder the agents' histories record as a
   * session's cwd, with sources, session counts, last activity and whether the folder is still
   * here; most recent activity first. The histories' part comes from a kept index of what each
   * history file records, never from reading every file: `refresh: 'background'` (the window)
   * answers at once and brings a stale index up to date behind (a `data.changed` naming
   * `workspaces` follows when it found anything); `'wait'` does that first when the index is stale.
   */
  'workspaces.listAll': method(
    z.object({ refresh: z.enum(['wait', 'background']).default('wait') }).strict(),
    z.object({
      items: z.array(WorkspaceListingSchema),
      /** A refresh of the histories' index is under way: more may come (the first one after an upgrade reads every head). */
      refreshing: z.boolean()
    })
  ),

  /** Hide a folder from the first screen (`hidden: true`), or show it again. Its sessions stay; `import --all` skips a hidden folder. */
  'workspaces.setHidden': method(
    z.object({ path: z.string().min(1).max(4096), hidden: z.boolean() }).strict(),
    z.object({ changed: z.boolean() })
  ),

  /** What `workspaces.forget` would remove: how many sessions, and whether the folder is hidden. */
  'workspaces.forgetPlan': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), ForgetPlanSchema),

  /**
   * Remove a workspace and its sessions from Retrace's store (never the agents' files). `sessions`
   * is the count the user confirmed (from `workspaces.forgetPlan`): refused with CONFLICT if the
   * workspace holds another number by now, or an import or rewind of it is under way.
   */
  'workspaces.forget': method(
    z.object({ workspaceId: WorkspaceIdSchema, sessions: z.number().int().nonnegative() }).strict(),
    z.object({ removedSessions: z.number().int().nonnegative() })
  ),

  /**
   * Open (and remember) a folder as a workspace; fails with a clear error if it is a file, unreadable,
   * or missing. A missing folder opens when Retrace or an agent's history recorded it: its history is browsable.
   */
  'workspaces.open': method(
    z.object({ path: z.string().min(1).max(4096) }).strict(),
    WorkspaceSummarySchema
  ),

  /** Create the demo workspace if needed (idempotent) and open it. */
  'workspaces.openDemo': method(NoInput, WorkspaceSummarySchema),

  /** Reopen a remembered workspace by id (it moves to the top of the recent list), even if its folder has moved. */
  'workspaces.reopen': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), WorkspaceSummarySchema),

  /** One workspace by id. */
  'workspaces.get': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), WorkspaceSummarySchema),

  /**
   * What the agents working in this folder keep besides their conversations (CianaParrot's memory
   * files, scheduled tasks and session counters, say), read now, read-only. Empty when none.
   */
  'workspaces.agentState': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), AgentStateSchema),

  /** Ask the user for a folder with the native dialog (Electron only); null when cancelled. */
  'workspaces.pickFolder': method(NoInput, z.object({ path: z.string().nullable() })),

  /** Sub-folders of a folder on the serving machine, for the web binding's folder picker (names only). */
  'folders.list': method(
    z.object({ path: z.string().max(4096).optional() }).strict(),
    z.object({ path: z.string(), parent: z.string().nullable(), home: z.string(), entries: z.array(FolderEntrySchema) })
  ),

  /** Sessions of a workspace, newest activity first, filtered by text and source; keyset-paged. */
  'sessions.list': method(
    z
      .object({
        workspaceId: WorkspaceIdSchema,
        query: z.string().max(500).optional(),
        source: SourceIdSchema.optional(),
        /** Also list warm-ups (see `SessionSummary.warmup`); left out by default. */
        includeWarmups: z.boolean().optional(),
        cursor: Cursor.nullish(),
        limit: z.number().int().min(1).max(500).default(100)
      })
      .strict(),
    z.object({
      items: z.array(SessionSummarySchema),
      nextCursor: Cursor.nullable(),
      /** Warm-ups of the workspace (of the source filtered on) left out of the list: 0 when they are included. */
      hiddenWarmups: z.number().int().nonnegative()
    })
  ),

  /**
   * Every session of a workspace as one graph, across sources: nodes with their parent (forks,
   * sub-agents) and predecessor (successors after `/clear`, `/new`) links, and the merges.
   */
  'sessions.tree': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), SessionTreeSchema),

  /** One session with its place in the tree (parent, children, predecessor, successors) and its checkpoints. */
  'sessions.get': method(z.object({ sessionId: SessionIdSchema }).strict(), SessionDetailSchema),

  /**
   * Write a new session file in the agent's own format and folder (Claude Code's project folder,
   * Codex's dated sessions folder) holding the session's conversation up to the end of `turn`
   * (for a Retrace branch: its parent's up to the fork, then its own), so the agent resumes it
   * with `command`. Only Claude Code and Codex sessions (and Retrace branches of them); never
   * modifies an existing file (refused if the name is taken).
   */
  'sessions.continueInAgent': method(
    z.object({ sessionId: SessionIdSchema, turn: z.number().int().positive(), agent: ResumableAgentSchema.optional() }).strict(),
    z.object({
      agent: ResumableAgentSchema,
      path: z.string(),
      agentSessionId: z.string(),
      cwd: z.string(),
      /** The cwd is on this computer; the agent resumes a session in its own folder, so `command` starts with `cd` there. */
      cwdExists: z.boolean(),
      command: z.string(),
      /** Prompts, replies and tool calls (with their results) the file holds. */
      items: z.number().int().nonnegative()
    })
  ),

  /**
   * A page of a session's display or context transcript, in ascending order. Without a cursor,
   * `after` starts at the beginning and `before` at the end; each page returns the cursors to
   * continue either way (keyset on seq, so every depth costs the same).
   */
  'transcript.page': method(
    z
      .object({
        sessionId: SessionIdSchema,
        transcript: TranscriptKindSchema.default('display'),
        direction: z.enum(['after', 'before']).default('after'),
        cursor: Cursor.nullish(),
        limit: z.number().int().min(1).max(500).default(100)
      })
      .strict(),
    z.object({
      items: z.array(MessageSchema),
      /** Cursor for the page before the first item; null at the start. */
      beforeCursor: Cursor.nullable(),
      /** Cursor for the page after the last item; null at the end. */
      afterCursor: Cursor.nullable(),
      /** Messages in this transcript. */
      total: z.number().int().nonnegative()
    })
  ),

  /**
   * Find in one session: the rows of its display or context transcript whose text or tool
   * input contains `query` (a case-insensitive substring, not words), in order, the first
   * 1,000. A matching tool result is reported as its call's seq (the row that shows it).
   */
  'transcript.find': method(
    z
      .object({
        sessionId: SessionIdSchema,
        query: z.string().min(1).max(500),
        transcript: TranscriptKindSchema.default('display')
      })
      .strict(),
    z.object({
      items: z.array(z.object({ seq: z.number().int().nonnegative(), turn: z.number().int().nonnegative() })),
      /** More rows match than were returned. */
      truncated: z.boolean()
    })
  ),

  /** Full-text search over message text and tool input across every workspace, or one: the newest 1,000 matches, best first. */
  'search.messages': method(
    z
      .object({
        query: z.string().min(1).max(500),
        workspaceId: WorkspaceIdSchema.optional(),
        cursor: Cursor.nullish(),
        limit: z.number().int().min(1).max(100).default(20)
      })
      .strict(),
    z.object({ items: z.array(SearchHitSchema), nextCursor: Cursor.nullable() })
  ),

  /**
   * Import the workspace's agent histories (Claude Code, Codex CLI) now: only what was added
   * since the last import. Opening a workspace does this by itself and then follows it live.
   */
  'imports.run': method(
    z.object({ workspaceId: WorkspaceIdSchema, sources: z.array(ImportSourceSchema).min(1).optional() }).strict(),
    ImportReportSchema
  ),

  /**
   * Stop the workspace's running import (the one opening it started, a live-follow step, or
   * `imports.run`). What was committed stays; following goes on for the sessions already
   * imported, and the files left over wait for `imports.run`. `cancelled` is false when nothing was running.
   */
  'imports.cancel': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), z.object({ cancelled: z.boolean() })),

  /** The sources Retrace imports, each with where it looks for histories (defaults and environment overrides). */
  'sources.list': method(NoInput, z.object({ items: z.array(SourceInfoSchema) })),

  /** Folders added to a workspace as a source's history, besides where the sources look by themselves. */
  'workspaces.sourceFolders': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), z.object({ items: z.array(SourceFolderSchema) })),

  /**
   * Add a folder as one source's history for this workspace (a copied ~/.claude, an agent home
   * elsewhere, a deployment on another disk), then import it: the sessions recorded in this
   * workspace's folder (or inside it, or recording none) come here (`report`) and are followed
   * like its own histories; the others go into their own workspaces, as `import --all` places
   * them (`elsewhere`: created if need be, not opened; a home or system folder's is read-only,
   * never rewound). Read-only.
   */
  'workspaces.addSourceFolder': method(
    z.object({ workspaceId: WorkspaceIdSchema, source: SourceIdSchema, path: z.string().min(1).max(4096) }).strict(),
    z.object({
      folder: SourceFolderSchema,
      report: ImportReportSchema,
      elsewhere: z.object({
        workspaces: z.array(z.object({ id: WorkspaceIdSchema, path: z.string(), sessions: z.number().int().nonnegative() })),
        refused: z.array(z.object({ cwd: z.string(), reason: z.string(), sessions: z.number().int().nonnegative() })),
        /** Sessions of a home or system folder: in its read-only workspace (browsable, never rewound). */
        readOnly: z.array(z.object({ id: WorkspaceIdSchema, path: z.string(), reason: z.string(), sessions: z.number().int().nonnegative() }))
      })
    })
  ),

  /** Stop importing from an added folder; what was imported from it stays. */
  'workspaces.removeSourceFolder': method(z.object({ workspaceId: WorkspaceIdSchema, folderId: z.number().int().positive() }).strict(), z.object({ removed: z.boolean() })),

  /** Everything imported since the workspace was opened (null before its first import). */
  'imports.lastReport': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), ImportReportSchema.nullable()),

  /**
   * Records the importers met and did not read (a record type, an event, a block they do not
   * know: an agent's format changed), summed per source, agent version and kind: one workspace's,
   * or every workspace's (each file once) without `workspaceId`.
   */
  'imports.unread': method(z.object({ workspaceId: WorkspaceIdSchema.optional() }).strict(), z.object({ items: z.array(UnreadCountSchema) })),

  /** The workspace's import: running (with progress), finished, cancelled; its report and what is left. */
  'imports.status': method(z.object({ workspaceId: WorkspaceIdSchema }).strict(), ImportStatusSchema),

  /**
   * How long each agent keeps its own history (Claude Code's `cleanupPeriodDays`, or its default
   * of 30 days), and how many sessions Retrace holds whose agent file is already deleted.
   */
  'retention.status': method(NoInput, RetentionStatusSchema),

  /**
   * Write `cleanupPeriodDays` into Claude Code's user settings.json, only that key (the user has
   * confirmed in the window), keeping a copy of the file beside it. Refused under an
   * organisation's managed settings.
   */
  'retention.setClaude': method(z.object({ days: z.number().int().min(1).max(100_000) }).strict(), RetentionChangeSchema),

  /** Put Claude Code's settings.json back exactly as before Retrace's last change; refused if it changed since. */
  'retention.undoClaude': method(NoInput, RetentionChangeSchema),

  ...journalMethods,
  ...blameMethods,
  ...exportMethods,
  ...usageMethods,
  ...agentMethods
} as const satisfies Record<string, MethodSpec>

export type Methods = typeof methods
export type MethodName = keyof Methods
/** What a caller passes (defaults may be omitted). */
export type MethodInput<K extends MethodName> = z.input<Methods[K]['input']>
/** What a handler receives once the input is parsed (defaults filled in). */
export type ParsedInput<K extends MethodName> = z.output<Methods[K]['input']>
export type MethodOutput<K extends MethodName> = z.output<Methods[K]['output']>

export const methodNames = Object.keys(methods) as MethodName[]

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name)
}
