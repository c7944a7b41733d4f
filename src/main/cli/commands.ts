import { join, resolve } from 'node:path'
import type { Message, MethodOutput, SessionDetail, SessionSummary } from '../../shared/contract'
import { rewoundInLabel, turnAtSeq } from '../../shared/source-labels'
import type { Runtime } from '../runtime/runtime'
import { expandHome } from '../fs/folder-access'
import { startWebServer } from '../web/server'
import type { CliCall } from './call'
import { formatMessage, formatTime, sessionRows, table } from './format'

export interface Output {
  out(text: string): void
  err(text: string): void
  /** Aborted once nobody reads the output any more (its pipe closed): a command that runs until interrupted stops. */
  closed?: AbortSignal
}

/** `retrace serve`: the web binding, until interrupted. */
export async function serveCommand(runtime: Runtime, call: CliCall, options: { demo: boolean; port: number; io: Output }): Promise<() => Promise<void>> {
  if (options.demo) await call('workspaces.openDemo', {})
  const server = await startWebServer({
    runtime,
    port: options.port,
    rendererDir: join(__dirname, '../renderer'),
    log: (message) => options.io.err(message)
  })
  if (runtime.dataFolder?.owned) runtime.dataFolder.announce(server.url)
  options.io.out(`Retrace is serving ${server.url}`)
  options.io.out(`Data folder: ${runtime.store.dataDir}. Press Ctrl+C to stop.`)
  return () => server.close()
}

/**
 * `retrace sessions <workspace-path>`: the sessions of a workspace, newest first, after importing
 * what its agents added since (as opening it in the window does). The folder need not be here any
 * more if a history records it (see open-path.ts). Warm-ups (an agent's start-up work, not the
 * user's) are left out as in the window, and counted in a last line, unless `--all`; the JSON
 * output says the same in `hiddenWarmups`.
 */
export async function sessionsCommand(call: CliCall, options: { path: string; json: boolean; all?: boolean; io: Output }): Promise<void> {
  const opened = await call('workspaces.open', { path: absolutePath(options.path) })
  await call('imports.run', { workspaceId: opened.id })
  const workspace = await call('workspaces.get', { workspaceId: opened.id })
  const items: SessionSummary[] = []
  const pages: MethodOutput<'sessions.list'>[] = []
  let cursor: string | null = null
  do {
    const page: MethodOutput<'sessions.list'> = await call('sessions.list', { workspaceId: workspace.id, cursor, limit: 500, includeWarmups: options.all === true })
    pages.push(page)
    items.push(...page.items)
    cursor = page.nextCursor
  } while (cursor)
  const hiddenWarmups = pages.at(-1)?.hiddenWarmups ?? 0
  if (options.json) return options.io.out(JSON.stringify({ workspace, sessions: items, hiddenWarmups }, null, 2))
  const hidden = hiddenWarmups > 0 ? `${hiddenWarmups} warm-up${hiddenWarmups === 1 ? '' : 's'} not listed (Claude Code's start-up agents, and sessions that only held them): --all lists them.` : ''
  if (items.length === 0) return options.io.out(`No sessions recorded for ${workspace.path} yet.${hidden ? `\n${hidden}` : ''}`)
  options.io.out(`${workspace.path} — ${items.length} session${items.length === 1 ? '' : 's'}\n`)
  options.io.out(table(['updated', 'kind', 'source', 'turns', 'msgs', 'id', 'title'], sessionRows(items)))
  if (hidden) options.io.out(`\n${hidden}`)
}

/** `retrace show <session-id>`: one session's transcript, turn by turn. */
export async function showCommand(call: CliCall, options: { sessionId: string; json: boolean; transcript: 'display' | 'context'; io: Output }): Promise<void> {
  const session = await call('sessions.get', { sessionId: options.sessionId })
  const messages: Message[] = []
  let cursor: string | null = null
  do {
    const page: MethodOutput<'transcript.page'> = await call('transcript.page', { sessionId: session.id, transcript: options.transcript, direction: 'after', cursor, limit: 500 })
    messages.push(...page.items)
    cursor = page.afterCursor
  } while (cursor)
  if (options.json) return options.io.out(JSON.stringify({ session, messages }, null, 2))
  options.io.out(`${session.title || '(untitled)'}\n${session.kind} · ${session.source} · ${session.turnCount} turns · ${session.messageCount} messages · updated ${formatTime(session.updatedAt)}`)
  if (session.parent) options.io.out(`parent: ${session.parent.title} (${session.parent.id})${parentPlace(session)}`)
  if (session.predecessor) options.io.out(`continues: ${session.predecessor.title} (${session.predecessor.id})`)
  const leftLines = await rewoundLinesOf(call, session)
  let turn = -1
  for (const message of messages) {
    for (const left of leftLines.filter((line) => line.forkSeq === message.seq)) {
      options.io.out(`\n⎇ ${rewoundInLabel(session.source)} here: the line the user left goes on in branch "${left.title}" (${left.id})`)
    }
    if (message.turn !== turn) {
      turn = message.turn
      options.io.out(`\n── Turn ${turn} ${'─'.repeat(40)}`)
    }
    options.io.out(formatMessage(message))
  }
}

/** For a line left by rewinding in the agent: where it left its parent. */
function parentPlace(session: SessionDetail): string {
  if (!session.rewoundInAgent || session.forkSeq === null) return session.forkSeq === null ? '' : `, forked at message #${session.forkSeq}`
  const turn = turnAtSeq(session.checkpoints, session.forkSeq)
  return `\n${rewoundInLabel(session.source)}: the user went back${turn === undefined ? '' : ` to turn ${turn}`} and continued in the parent; this is the line left`
}

/** The branches split off `session` where the user went back inside the agent, with where they start. */
async function rewoundLinesOf(call: CliCall, session: SessionDetail): Promise<SessionDetail[]> {
  const branches = session.children.filter((child) => child.kind === 'branch')
  const details = await Promise.all(branches.map((branch) => call('sessions.get', { sessionId: branch.id })))
  return details.filter((detail) => detail.rewoundInAgent && detail.forkSeq !== null)
}

/** `retrace search <query>`: full-text search across workspaces. */
export async function searchCommand(call: CliCall, options: { query: string; workspace?: string | undefined; json: boolean; io: Output }): Promise<void> {
  const workspaceId = options.workspace ? (await call('workspaces.open', { path: absolutePath(options.workspace) })).id : undefined
  const result = await call('search.messages', { query: options.query, workspaceId, limit: 50 })
  if (options.json) return options.io.out(JSON.stringify(result.items, null, 2))
  if (result.items.length === 0) return options.io.out(`No messages match "${options.query}".`)
  for (const hit of result.items) {
    const snippet = hit.snippet.map((part) => (part.match ? `[${part.text}]` : part.text)).join('').replace(/\s+/g, ' ')
    options.io.out(`${hit.workspaceName} › ${hit.sessionTitle} (turn ${hit.turn}, ${hit.role})  ${hit.sessionId}\n    ${snippet}`)
  }
}

/** A path as typed in this shell (`~`, relative to the current folder), made absolute. */
function absolutePath(path: string): string {
  return resolve(expandHome(path.trim()))
}
