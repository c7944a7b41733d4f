import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { methods, SearchHitSchema, TreeMergeSchema, TreeNodeSchema, WorkspaceSummarySchema, type TreeNode } from '../../shared/contract'
import { formatTime } from '../cli/format'
import { answer, openWorkspace, sessionIdOf, workspaceOfSession, type McpContext } from './context'
import { sessionInput, turnInput, workspaceInput } from './inputs'
import { readTurn, TurnSchema, turnText } from './turn-reader'

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const

const HitSchema = SearchHitSchema.omit({ snippet: true }).extend({ snippet: z.string().describe('The matching text, matches in [brackets].') })
const WorkspaceRefSchema = WorkspaceSummarySchema.pick({ id: true, path: true, name: true, folderExists: true })
const ListedSessionSchema = TreeNodeSchema.extend({ depth: z.number().int().nonnegative() })

/** The tools that find and read conversations: search_history, list_sessions, read_turn. */
export function registerHistoryTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'search_history',
    {
      title: 'Search agent history',
      description:
        "Full-text search of every AI-agent conversation Retrace holds (prompts, answers, tool calls), across every project folder or in one. Each hit names the session, the turn and a snippet; read_turn reads the turn. Imports what the agents wrote since first.",
      inputSchema: {
        query: methods['search.messages'].input.shape.query.describe('Words to find: messages holding all of them, in any order (the last word also matches as the start of a longer word).'),
        workspace: workspaceInput.optional(),
        limit: methods['search.messages'].input.shape.limit.describe('How many hits at most (1-100, default 20), best first.')
      },
      outputSchema: { query: z.string(), workspace: z.string().nullable(), hits: z.array(HitSchema), more: z.boolean() },
      annotations: READ_ONLY
    },
    async ({ query, workspace, limit }) => {
      const folder = workspace !== undefined ? await openWorkspace(ctx, workspace) : null
      const note = folder ? await ctx.fresh.workspace(folder.id) : await ctx.fresh.everything()
      const result = await ctx.call('search.messages', { query, limit, ...(folder ? { workspaceId: folder.id } : {}) })
      const hits = result.items.map(({ snippet, ...hit }) => ({ ...hit, snippet: snippet.map((part) => (part.match ? `[${part.text}]` : part.text)).join('').replace(/\s+/g, ' ').trim() }))
      const where = folder ? ` in ${folder.path}` : ''
      const text =
        hits.length === 0
          ? `No messages match "${query}"${where}.`
          : [
              `${hits.length}${result.nextCursor ? '+' : ''} match${hits.length === 1 ? '' : 'es'} for "${query}"${where}:`,
              ...hits.map((hit) => `- ${hit.workspaceName} › “${hit.sessionTitle}” turn ${hit.turn} (${hit.role}, ${formatTime(hit.createdAt)}) session ${hit.sessionId}\n  ${hit.snippet}`)
            ].join('\n')
      return answer(text, { query, workspace: folder?.path ?? null, hits, more: result.nextCursor !== null }, [note])
    }
  )

  server.registerTool(
    'list_sessions',
    {
      title: "List a folder's sessions",
      description:
        "The sessions agents recorded in one project folder, as a tree (forks, sub-agents and resumed lines under the session they came from), newest first, with turns, files changed and ids. Imports what the agents wrote since first.",
      inputSchema: {
        workspace: workspaceInput,
        include_warmups: z.boolean().optional().describe("Also list the agents' start-up work (Claude Code warm-ups); left out by default."),
        limit: z.number().int().min(1).max(2000).optional().describe('How many sessions at most (default 100).')
      },
      outputSchema: { workspace: WorkspaceRefSchema, sessions: z.array(ListedSessionSchema), merges: z.array(TreeMergeSchema), total: z.number().int(), hiddenWarmups: z.number().int() },
      annotations: READ_ONLY
    },
    async ({ workspace, include_warmups: includeWarmups = false, limit = 100 }) => {
      const opened = await openWorkspace(ctx, workspace)
      const note = await ctx.fresh.workspace(opened.id)
      const tree = await ctx.call('sessions.tree', { workspaceId: opened.id })
      const shown = tree.nodes.filter((node) => includeWarmups || !node.warmup)
      const ordered = treeOrder(shown)
      const sessions = ordered.slice(0, limit)
      const hiddenWarmups = tree.nodes.length - shown.length
      const folder = { id: opened.id, path: opened.path, name: opened.name, folderExists: opened.folderExists }
      const lines = sessions.map((node) => sessionLine(node))
      const state = opened.readOnly ? ' (read-only, a home or system folder: browsable, never rewound)' : opened.folderExists ? '' : ' (folder not on this disk: browsable, not rewindable)'
      const head = `${opened.path}${state}: ${ordered.length} session${ordered.length === 1 ? '' : 's'}${ordered.length > sessions.length ? `, the newest ${sessions.length} listed` : ''}.`
      const tail = hiddenWarmups > 0 ? `\n${hiddenWarmups} warm-up${hiddenWarmups === 1 ? '' : 's'} not listed (include_warmups lists them).` : ''
      const text = ordered.length === 0 ? `No sessions recorded for ${opened.path} yet.${tail}` : `${head}\n${lines.join('\n')}${tail}`
      return answer(text, { workspace: folder, sessions, merges: tree.merges, total: ordered.length, hiddenWarmups }, [note])
    }
  )

  server.registerTool(
    'read_turn',
    {
      title: 'Read one turn',
      description: "One turn of a session: the user's prompt, the agent's answer, its tool calls (with the start of each result) and the files it changed.",
      inputSchema: { session: sessionInput, turn: turnInput },
      outputSchema: TurnSchema.shape,
      annotations: READ_ONLY
    },
    async ({ session, turn }) => {
      const sessionId = sessionIdOf(ctx, session)
      const note = await ctx.fresh.workspace((await workspaceOfSession(ctx, sessionId)).id)
      const read = await readTurn(ctx.call, sessionId, turn)
      return answer(turnText(read), read, [note])
    }
  )
}

/** Roots newest first, each followed by what came from it (oldest first), depth-first. */
function treeOrder(nodes: TreeNode[]): (TreeNode & { depth: number })[] {
  const present = new Set(nodes.map((node) => node.id))
  const children = new Map<string, TreeNode[]>()
  const roots: TreeNode[] = []
  for (const node of nodes) {
    const above = node.parentId ?? node.predecessorId
    if (above !== null && present.has(above)) children.set(above, [...(children.get(above) ?? []), node])
    else roots.push(node)
  }
  const ordered: (TreeNode & { depth: number })[] = []
  const visit = (node: TreeNode, depth: number) => {
    ordered.push({ ...node, depth })
    for (const child of (children.get(node.id) ?? []).sort((a, b) => a.createdAt - b.createdAt)) visit(child, depth + 1)
  }
  for (const root of roots.sort((a, b) => b.updatedAt - a.updatedAt)) visit(root, 0)
  return ordered
}

function sessionLine(node: TreeNode & { depth: number }): string {
  const kind = node.rewoundInAgent ? 'branch (rewound in the agent)' : node.parentId === null && node.predecessorId !== null ? 'continues the one above' : node.kind
  const facts = [kind, node.source, `${node.turnCount} turn${node.turnCount === 1 ? '' : 's'}`, `${node.filesChanged} file${node.filesChanged === 1 ? '' : 's'} changed`, `updated ${formatTime(node.updatedAt)}`, node.warmup ? 'warm-up' : '']
  return `${'  '.repeat(Math.min(node.depth, 6))}- “${node.title || '(untitled)'}” ${node.id} · ${facts.filter(Boolean).join(' · ')}`
}
