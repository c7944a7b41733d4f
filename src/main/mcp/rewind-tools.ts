import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { RetraceError, RewindPlanSchema, RewindResultSchema, SessionIdSchema } from '../../shared/contract'
import { needingConfirmation, printPlan, shownItems, type Plan, type RewindResult } from '../cli/rewind-preview'
import { answer, sessionIdOf, workspaceOfSession, type McpContext } from './context'
import { leaveInput, onConflictInput, rewindIdInput, sessionInput, tokenInput, turnInput } from './inputs'

type ConflictChoice = z.infer<typeof onConflictInput>

/** A preview: its `items` are the files that would change or are refused (those already right are left out). */
const PreviewSchema = RewindPlanSchema.extend({
  conflicts: z.array(z.string()),
  needsConfirmation: z.array(z.string()),
  /** This server may apply it (started with --allow-rewind). */
  canApply: z.boolean()
})
const RewindOutput = RewindResultSchema.extend({ rewindId: z.string().nullable(), nothingToDo: z.boolean() })

/** How many previews are remembered by token (a model reviews one or two at a time). */
const KEPT_PREVIEWS = 32

/** The previews this server gave, by token, so that an apply leaves (leave) exactly the files its preview named. */
class Previews {
  private readonly byToken = new Map<string, Plan>()

  remember(plan: Plan): void {
    this.byToken.delete(plan.token)
    this.byToken.set(plan.token, plan)
    for (const token of this.byToken.keys()) {
      if (this.byToken.size <= KEPT_PREVIEWS) break
      this.byToken.delete(token)
    }
  }

  get(token: string): Plan | undefined {
    return this.byToken.get(token)
  }
}

/**
 * preview_rewind and preview_undo (read-only, always there), and rewind and undo, registered
 * only when the user started the server with --allow-rewind: a tool that is not listed cannot
 * be called. The conflict rules are the CLI's: a conflict is skipped unless `on_conflict` says
 * otherwise, and a plan that changed since its preview is refused. A file from a foreign history
 * that runs code, grants access or configures an agent is never written here: the model must
 * not be the one to confirm it (a hostile history could ask it to), so its answer tells the
 * person the command, or the window, that confirms it.
 */
export function registerRewindTools(server: McpServer, ctx: McpContext): void {
  const previews = new Previews()
  const preview = (plan: Plan, what: string, applyHint: string, about: Record<string, unknown>, note: string | null = null) => {
    previews.remember(plan)
    const items = shownItems(plan)
    const structured = { ...plan, items, conflicts: conflictsOf(plan), needsConfirmation: needingConfirmation(plan).map((item) => item.path), canApply: ctx.allowRewind, ...about }
    return answer(previewText(plan, what, ctx.allowRewind ? applyHint : null, confirmCommand(about)), structured, [note])
  }

  server.registerTool(
    'preview_rewind',
    {
      title: 'Preview a rewind',
      description:
        "What putting a project's files back to how they were before a turn of a session would do: each file restored, created or deleted, the conflicts (files changed since the agent wrote them) and the files that need the user's confirmation. Writes nothing. Returns a token for rewind.",
      inputSchema: { session: sessionInput, turn: turnInput },
      outputSchema: PreviewSchema.extend({ sessionId: SessionIdSchema, turn: z.number().int() }).shape,
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    async ({ session, turn }) => {
      const sessionId = sessionIdOf(ctx, session)
      const folder = await workspaceOfSession(ctx, sessionId)
      const note = await ctx.fresh.workspace(folder.id, 'all')
      const plan = await ctx.call('rewind.plan', { sessionId, turn })
      return preview(plan, `the files of ${folder.path} back to before turn ${turn} of session ${sessionId}`, `rewind {session: "${sessionId}", turn: ${turn}, token: "${plan.token}"}`, { sessionId, turn }, note)
    }
  )

  server.registerTool(
    'preview_undo',
    {
      title: 'Preview undoing a rewind',
      description: 'What undoing a rewind would do: the files it would put back as they were before that rewind, and the conflicts (files changed since the rewind). Writes nothing. Returns a token for undo.',
      inputSchema: { rewind_id: rewindIdInput },
      outputSchema: PreviewSchema.extend({ rewindId: z.string() }).shape,
      annotations: { readOnlyHint: true, openWorldHint: false }
    },
    async ({ rewind_id: rewindId }) => {
      const plan = await ctx.call('rewind.planUndo', { rewindId })
      return preview(plan, `undoing rewind ${rewindId}`, `undo {rewind_id: "${rewindId}", token: "${plan.token}"}`, { rewindId })
    }
  )

  if (!ctx.allowRewind) return
  const applyInputs = { token: tokenInput.optional(), on_conflict: onConflictInput.optional(), leave: leaveInput.optional() }

  server.registerTool(
    'rewind',
    {
      title: 'Rewind files to before a turn',
      description:
        "Put a project's files back to how they were before a turn of a session (what preview_rewind showed; pass its token). Conflicts are skipped unless on_conflict says otherwise; refused if the plan changed since the preview; files that need the user's confirmation are left alone (only the user can confirm them, in the Retrace app or the retrace command). Only when the user asked for it. undo reverses it.",
      inputSchema: { session: sessionInput, turn: turnInput, ...applyInputs },
      outputSchema: RewindOutput.extend({ sessionId: SessionIdSchema, turn: z.number().int() }).shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
    },
    async ({ session, turn, ...request }) => {
      const sessionId = sessionIdOf(ctx, session)
      const note = await ctx.fresh.workspace((await workspaceOfSession(ctx, sessionId)).id, 'all')
      const plan = await ctx.call('rewind.plan', { sessionId, turn })
      const result = await applyReviewed(plan, previews, request, confirmCommand({ sessionId, turn }), (args) => ctx.call('rewind.apply', { sessionId, turn, ...args }))
      return answer(resultText(result), { ...outputOf(result), sessionId, turn }, [note])
    }
  )

  server.registerTool(
    'undo',
    {
      title: 'Undo a rewind',
      description: "Put back what a rewind replaced (what preview_undo showed; pass its token). Files changed since the rewind are conflicts, skipped unless on_conflict says otherwise. An undo is a rewind too: undo undoes it.",
      inputSchema: { rewind_id: rewindIdInput, ...applyInputs },
      outputSchema: RewindOutput.extend({ undoOf: z.string() }).shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
    },
    async ({ rewind_id: rewindId, ...request }) => {
      const plan = await ctx.call('rewind.planUndo', { rewindId })
      const result = await applyReviewed(plan, previews, request, confirmCommand({ rewindId }), (args) => ctx.call('rewind.undo', { rewindId, ...args }))
      return answer(resultText(result), { ...outputOf(result), undoOf: rewindId })
    }
  )
}

interface ApplyRequest {
  token?: string | undefined
  on_conflict?: ConflictChoice | undefined
  leave?: string[] | undefined
}
type ApplyArgs = { token: string; defaultChoice: ConflictChoice; confirmed: string[]; excluded: string[] }

/** The command by which the user confirms what this server may not (or they tick it in the app's preview). */
function confirmCommand(of: { sessionId?: unknown; turn?: unknown; rewindId?: unknown }): string {
  return typeof of.rewindId === 'string' ? `retrace undo ${of.rewindId} --allow-sensitive` : `retrace rewind ${String(of.sessionId)} --turn ${String(of.turn)} --allow-sensitive`
}

/**
 * Apply a plan made just now, held to the preview the model reviewed (its token): the contract
 * refuses the apply if the plan changed since. What is left alone is read from that preview;
 * nothing is confirmed (see registerRewindTools), and a file left for want of confirmation
 * says who can give it. Null when there is nothing to do.
 */
async function applyReviewed(fresh: Plan, previews: Previews, request: ApplyRequest, command: string, run: (args: ApplyArgs) => Promise<RewindResult>): Promise<RewindResult | null> {
  const reviewed = (request.token !== undefined ? previews.get(request.token) : undefined) ?? fresh
  if (fresh.items.every((item) => item.action === 'none') && (request.token === undefined || request.token === fresh.token)) return null
  const excluded = (request.leave ?? []).map((path) => {
    const item = reviewed.items.find((candidate) => candidate.path === path)
    if (!item) throw new RetraceError('VALIDATION', `leave: the preview has no file ${path} (give paths as the preview lists them).`)
    return item.pathId
  })
  let result: RewindResult
  try {
    result = await run({ token: request.token ?? fresh.token, defaultChoice: request.on_conflict ?? 'skip', confirmed: [], excluded })
  } catch (error) {
    if (error instanceof RetraceError && error.code === 'CONFLICT') throw new RetraceError('CONFLICT', `${error.message} (Preview again for the new plan and its token.)`)
    throw error
  }
  const unconfirmed = new Map(needingConfirmation(fresh).map((item) => [item.pathId, item.needsConfirmation]))
  const refused = result.refused.map((refusal) => {
    const why = unconfirmed.get(refusal.pathId)
    return why ? { ...refusal, reason: `not confirmed: it ${why}, and it comes from a history this computer did not record; this server never confirms such a file; only the user can, in the Retrace app's preview or with \`${command}\`` } : refusal
  })
  return { ...result, refused }
}

function conflictsOf(plan: Plan): string[] {
  return plan.items.filter((item) => item.conflict && !item.refused && item.action !== 'none').map((item) => item.path)
}

function previewText(plan: Plan, what: string, applyHint: string | null, command: string): string {
  const lines: string[] = [`Preview (nothing written): ${what}.`]
  printPlan(plan, { out: (text) => lines.push(text), err: (text) => lines.push(text) })
  if (plan.items.every((item) => item.action === 'none')) return lines.join('\n')
  const conflicts = conflictsOf(plan)
  if (conflicts.length > 0) {
    lines.push(`${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'} (changed since the agent wrote ${conflicts.length === 1 ? 'it' : 'them'}): ${conflicts.join(', ')}. Skipped unless on_conflict is overwrite or keep-both; ask the user which.`)
  }
  const sensitive = needingConfirmation(plan).map((item) => item.path)
  if (sensitive.length > 0) {
    lines.push(`Needs the user's confirmation (runs code, grants access or configures an agent, from a history this computer did not record): ${sensitive.join(', ')}. A rewind here leaves ${sensitive.length === 1 ? 'it' : 'them'} alone; only the user can confirm ${sensitive.length === 1 ? 'it' : 'them'}, in the Retrace app's preview or with \`${command}\`.`)
  }
  lines.push(applyHint ? `To apply exactly this preview: ${applyHint}.` : 'This server is read-only (started without --allow-rewind): the user can apply it with the retrace command (`retrace rewind` or `retrace undo`), or in the Retrace app.')
  return lines.join('\n')
}

function outputOf(result: RewindResult | null): z.infer<typeof RewindOutput> {
  return result ? { ...result, nothingToDo: false } : { rewindId: null, changed: [], skipped: [], refused: [], nothingToDo: true }
}

function resultText(result: RewindResult | null): string {
  if (!result) return 'Nothing to do: every file already matches. Nothing was written.'
  const lines = [`Rewind ${result.rewindId}: ${result.changed.length} changed, ${result.skipped.length} skipped, ${result.refused.length} refused.`]
  for (const changed of result.changed) lines.push(`  ${changed.action} ${changed.path}${changed.keptAs ? ` (the user's version kept as ${changed.keptAs})` : ''}`)
  for (const skipped of result.skipped) lines.push(`  skipped ${skipped.path} (left as it is)`)
  for (const refused of result.refused) lines.push(`  refused ${refused.path}: ${refused.reason}`)
  lines.push(`Undo with: undo {rewind_id: "${result.rewindId}"}`)
  return lines.join('\n')
}
