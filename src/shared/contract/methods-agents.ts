import { z } from 'zod'
import { SourceIdSchema, Timestamp, WorkspaceIdSchema } from './domain'
import type { MethodSpec } from './method-spec'

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): MethodSpec<I, O> => ({ input, output })

/** The agents whose hooks Retrace can install (`retrace hooks install --agent …`). */
export const HookAgentSchema = z.enum(['claude-code', 'gemini', 'codex', 'cursor', 'copilot'])
export type HookAgentId = z.infer<typeof HookAgentSchema>
/** `user`: the agent's own settings, every project; `project`: the workspace's settings files. */
export const HookScopeSchema = z.enum(['user', 'project'])

/** One run of an installed hook, from the hook log in the data folder. */
export const HookRunSchema = z.object({
  at: Timestamp,
  phase: z.enum(['begin', 'end']),
  workspace: z.string().nullable(),
  /** The agent's own session id; Retrace's session and turn once known. */
  agentSession: z.string().nullable(),
  sessionId: z.string().nullable(),
  turn: z.number().int().nullable(),
  /** Files the turn changed (an end only). */
  changes: z.number().int().nullable(),
  ms: z.number().nonnegative(),
  error: z.string().nullable(),
  /** Captured by the running app the hook handed its turn to, or by the hook's own process (absent in older logs). */
  via: z.enum(['app', 'hook']).optional()
})
export type HookRunInfo = z.infer<typeof HookRunSchema>

const HookState = z.enum(['current', 'other']).nullable()

/** One settings file an agent reads Retrace's hooks or MCP server from. */
export const ConnectionFileSchema = z.object({
  scope: HookScopeSchema,
  file: z.string(),
  /** Each hook: there with this Retrace's command (`current`), another Retrace's (`other`), or absent. */
  begin: HookState.optional(),
  end: HookState.optional(),
  /** The MCP server named retrace: this Retrace's, another Retrace's, something else's, or none. */
  mcp: z.enum(['current', 'other', 'foreign']).nullable().optional(),
  /** Why the file could not be read (it is then left alone). */
  problem: z.string().optional()
})
export type ConnectionFile = z.infer<typeof ConnectionFileSchema>

const ScopedCommands = z.object({ user: z.string(), project: z.string().nullable() })

/** How one agent is connected to Retrace. */
export const AgentConnectionSchema = z.object({
  agent: HookAgentSchema,
  label: z.string(),
  source: SourceIdSchema,
  /** What its hooks capture, and what they cannot (for people). */
  captures: z.string(),
  limits: z.string(),
  events: z.object({ begin: z.string(), end: z.string() }),
  hooks: z.array(ConnectionFileSchema),
  mcp: z.array(ConnectionFileSchema),
  /** The last turn a hook captured, and the last hook run that failed (a failed run never fails the agent). */
  lastCapture: HookRunSchema.nullable(),
  lastError: HookRunSchema.nullable(),
  /** The hook commands written into its settings, and the CLI commands that connect or disconnect it; null when no Node to run hooks with was found. */
  commands: z.object({ begin: z.string(), end: z.string(), install: ScopedCommands, uninstall: ScopedCommands }).nullable(),
  notes: z.array(z.string())
})
export type AgentConnection = z.infer<typeof AgentConnectionSchema>

const ConnectInput = z
  .object({
    agent: HookAgentSchema,
    scope: HookScopeSchema,
    /** The workspace whose files `scope: project` edits. */
    workspaceId: WorkspaceIdSchema.optional(),
    /** Also (un)register Retrace's MCP server. */
    mcp: z.boolean().default(true)
  })
  .strict()
  .refine((input) => input.scope === 'user' || input.workspaceId !== undefined, { message: 'scope "project" needs a workspaceId' })

const ConnectOutput = z.object({
  files: z.array(z.object({ file: z.string(), what: z.array(z.string()), backup: z.string().nullable() })),
  problems: z.array(z.object({ agent: HookAgentSchema, message: z.string() }))
})

export const agentMethods = {
  /** Every agent Retrace can connect: its hooks and MCP server (user files, and the workspace's), its last capture and last error. */
  'agents.connections': method(z.object({ workspaceId: WorkspaceIdSchema.optional() }).strict(), z.object({ items: z.array(AgentConnectionSchema) })),
  /**
   * Write the agent's checkpoint hooks (and Retrace's MCP server) into its settings, as
   * `retrace hooks install --agent …` does: merged, a backup beside each file, idempotent.
   */
  'agents.connect': method(ConnectInput, ConnectOutput),
  /** Take out exactly what `agents.connect` (or `retrace hooks install`) added. */
  'agents.disconnect': method(ConnectInput, ConnectOutput)
}
