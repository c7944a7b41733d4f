import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { BlameSchema, FileDiffSchema, FileHistoryItemSchema, SessionIdSchema } from '../../shared/contract'
import { blameText } from '../cli/blame-command'
import { formatTime } from '../cli/format'
import { answer, fileIn, pathIdOf, sessionIdOf, workspaceOfSession, type McpContext } from './context'
import { diffAnswer } from './diff-answer'
import { fileInput, sessionInput, turnInput, workspaceInput } from './inputs'

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const

const size = (version: { size: number } | null) => (version ? `${version.size} B` : 'absent')

/** The tools that follow files through the history: file_history, diff, blame. */
export function registerFileTools(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'file_history',
    {
      title: "A file's history",
      description: 'Every recorded version of one file across every session of its project folder, oldest first: which session and turn wrote it, how (a tool, a scan, a rewind), and its size before and after.',
      inputSchema: { file: fileInput, workspace: workspaceInput.optional() },
      outputSchema: { workspace: z.string(), path: z.string(), items: z.array(FileHistoryItemSchema) },
      annotations: READ_ONLY
    },
    async ({ file, workspace }) => {
      const target = await fileIn(ctx, file, workspace)
      const note = await ctx.fresh.workspace(target.workspace.id)
      const history = await ctx.call('files.history', { workspaceId: target.workspace.id, pathId: pathIdOf(target.path) })
      const rows = history.items.map((item) => {
        const who = item.sessionId ? `“${item.sessionTitle ?? ''}” turn ${item.turn ?? '?'} (session ${item.sessionId})` : 'no session'
        return `- ${formatTime(item.createdAt)} ${item.op} by ${who}, seen by ${item.observed}: ${size(item.before)} → ${size(item.after)}`
      })
      const text =
        rows.length === 0
          ? `No recorded change to ${target.path} in ${target.workspace.path}.`
          : `${target.path} in ${target.workspace.path}: ${rows.length} recorded change${rows.length === 1 ? '' : 's'}, oldest first.\n${rows.join('\n')}`
      return answer(text, { workspace: target.workspace.path, path: target.path, items: history.items }, [note])
    }
  )

  server.registerTool(
    'diff',
    {
      title: "A turn's change to a file",
      description:
        'What one turn of a session did to one file, as a unified diff (before the turn against after it), cut past 40,000 characters (`omittedLines`, `note`). Past the line diff\'s bounds, `tooManyChanges`: the two versions instead, one after the other.',
      inputSchema: { session: sessionInput, turn: turnInput, file: fileInput },
      outputSchema: FileDiffSchema.extend({ sessionId: SessionIdSchema, turn: z.number().int(), path: z.string(), omittedLines: z.number().int().nonnegative(), note: z.string().nullable() }).shape,
      annotations: READ_ONLY
    },
    async ({ session, turn, file }) => {
      const sessionId = sessionIdOf(ctx, session)
      const folder = await workspaceOfSession(ctx, sessionId)
      const note = await ctx.fresh.workspace(folder.id)
      const target = await fileIn(ctx, file, folder.path)
      const diff = await ctx.call('files.diff', { sessionId, pathId: pathIdOf(target.path), fromTurn: turn, toTurn: turn + 1 })
      const { text, data } = diffAnswer(diff, target.path, turn)
      return answer(text, { ...data, sessionId, turn, path: target.path }, [note])
    }
  )

  server.registerTool(
    'blame',
    {
      title: 'Who wrote each line',
      description:
        "Who last wrote each line of a file, like git blame, from every session of its project folder: the session and turn (its agent, time and prompt), or a change no agent turn made, or lines changed on disk since. Refused for binary, linked or very large files.",
      inputSchema: { file: fileInput, workspace: workspaceInput.optional() },
      outputSchema: BlameSchema.shape,
      annotations: READ_ONLY
    },
    async ({ file, workspace }) => {
      const target = await fileIn(ctx, file, workspace)
      const note = await ctx.fresh.workspace(target.workspace.id)
      const blame = await ctx.call('files.blame', { workspaceId: target.workspace.id, path: target.path })
      return answer(`${target.path} in ${target.workspace.path}; each line: session (first 8 characters), turn, date, line number.\n${blameText(blame)}`, blame, [note])
    }
  )
}
