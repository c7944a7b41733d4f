import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { RetraceError, type MethodOutput, type SessionDetail, type SessionSummary } from '../../shared/contract'
import { formatTime } from '../cli/format'
import { cut, sessionIdOf, workspaceOfSession, type McpContext } from './context'
import { readTurn, turnText } from './turn-reader'

/** How many sessions the listing offers: the newest of the most recently used workspaces. */
const LISTED_SESSIONS = 50
const LISTED_WORKSPACES = 20

export const sessionUri = (sessionId: string): string => `retrace://session/${encodeURIComponent(sessionId)}`
export const turnUri = (sessionId: string, turn: number): string => `${sessionUri(sessionId)}/turn/${turn}`

/**
 * Sessions and turns as resources, for clients that let the user attach them:
 * `retrace://session/<id>` (a session's facts and its turns, each with its URI) and
 * `retrace://session/<id>/turn/<n>` (what read_turn says). The id may be any form a tool takes.
 */
export function registerResources(server: McpServer, ctx: McpContext): void {
  server.registerResource(
    'session',
    new ResourceTemplate('retrace://session/{session}', { list: async () => ({ resources: await recentSessions(ctx) }) }),
    { title: 'An agent session', description: "A session's title, agent, folder and turns (each with its own URI).", mimeType: 'text/markdown' },
    async (uri, variables) => {
      const sessionId = await freshSession(ctx, single(variables.session, 'session'))
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await sessionText(ctx, sessionId) }] }
    }
  )

  server.registerResource(
    'turn',
    new ResourceTemplate('retrace://session/{session}/turn/{turn}', { list: undefined }),
    { title: 'One turn of a session', description: "A turn's prompt, answer, tool calls and files changed.", mimeType: 'text/markdown' },
    async (uri, variables) => {
      const sessionId = await freshSession(ctx, single(variables.session, 'session'))
      const turn = Number(single(variables.turn, 'turn'))
      if (!Number.isInteger(turn) || turn < 1) throw new RetraceError('VALIDATION', `The turn in ${uri.href} must be a whole number from 1.`)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: turnText(await readTurn(ctx.call, sessionId, turn)) }] }
    }
  )
}

/** The session a URI names, once what its agent wrote since is imported. */
async function freshSession(ctx: McpContext, ref: string): Promise<string> {
  const sessionId = sessionIdOf(ctx, ref)
  await ctx.fresh.workspace((await workspaceOfSession(ctx, sessionId)).id)
  return sessionId
}

function single(value: string | string[] | undefined, name: string): string {
  const one = Array.isArray(value) ? value[0] : value
  if (!one) throw new RetraceError('VALIDATION', `The URI names no ${name}.`)
  return decodeURIComponent(one)
}

/** The newest sessions of the workspaces used most recently, newest first. */
async function recentSessions(ctx: McpContext) {
  const workspaces = (await ctx.call('workspaces.listRecent', { limit: LISTED_WORKSPACES })).items
  const sessions: { session: SessionSummary; path: string }[] = []
  for (const workspace of workspaces) {
    const page = await ctx.call('sessions.list', { workspaceId: workspace.id, limit: LISTED_SESSIONS })
    sessions.push(...page.items.map((session) => ({ session, path: workspace.path })))
  }
  return sessions
    .sort((a, b) => b.session.updatedAt - a.session.updatedAt)
    .slice(0, LISTED_SESSIONS)
    .map(({ session, path }) => ({
      uri: sessionUri(session.id),
      name: session.title || '(untitled)',
      description: `${session.source} · ${session.turnCount} turns · ${path} · updated ${formatTime(session.updatedAt)}`,
      mimeType: 'text/markdown'
    }))
}

/** A session's facts, then one line per turn: its first prompt and its URI. */
async function sessionText(ctx: McpContext, sessionId: string): Promise<string> {
  const session = await ctx.call('sessions.get', { sessionId })
  const workspace = await ctx.call('workspaces.get', { workspaceId: session.workspaceId })
  const prompts = await firstPrompts(ctx, session)
  const lines = [
    `# ${session.title || '(untitled)'}`,
    '',
    `- Session: ${session.id}${session.sourceSessionId ? ` (the agent's id: ${session.sourceSessionId})` : ''}`,
    `- Agent: ${session.source}${session.model ? `, ${session.model}` : ''}; ${session.kind}`,
    `- Folder: ${workspace.path}${workspace.readOnly ? ' (read-only, a home or system folder: never rewound)' : workspace.folderExists ? '' : ' (not on this disk)'}`,
    `- ${session.turnCount} turns, ${session.messageCount} messages; started ${formatTime(session.createdAt)}, updated ${formatTime(session.updatedAt)}`,
    ...(session.parent ? [`- Comes from: “${session.parent.title}” ${sessionUri(session.parent.id)}`] : []),
    ...(session.predecessor ? [`- Continues: “${session.predecessor.title}” ${sessionUri(session.predecessor.id)}`] : []),
    ...session.children.map((child) => `- ${child.kind}: “${child.title}” ${sessionUri(child.id)}`),
    '',
    '## Turns',
    ...session.checkpoints.map((checkpoint) => `${checkpoint.turn}. ${cut(prompts.get(checkpoint.turn) ?? '', 200)} — ${turnUri(session.id, checkpoint.turn)}`)
  ]
  return lines.join('\n')
}

/** Each turn's first user message, on one line. */
async function firstPrompts(ctx: McpContext, session: SessionDetail): Promise<Map<number, string>> {
  const prompts = new Map<number, string>()
  let cursor: string | null = null
  do {
    const page: MethodOutput<'transcript.page'> = await ctx.call('transcript.page', { sessionId: session.id, direction: 'after', cursor, limit: 500 })
    for (const message of page.items) {
      if (message.role === 'user' && !prompts.has(message.turn)) prompts.set(message.turn, message.content.replace(/\s+/g, ' ').trim())
    }
    cursor = page.afterCursor
  } while (cursor)
  return prompts
}
