import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Runtime } from '../runtime/runtime'
import { APP_VERSION } from '../runtime/version'
import { cliCaller } from '../cli/call'
import type { McpContext } from './context'
import { registerFileTools } from './file-tools'
import { Freshness } from './freshness'
import { registerHistoryTools } from './history-tools'
import { registerResources } from './resources'
import { registerRewindTools } from './rewind-tools'

const ABOUT =
  "Retrace keeps the history of AI coding agents (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI and others): every conversation, per project folder, with the file changes each turn made. search_history finds past conversations; list_sessions lists a folder's sessions; read_turn reads one turn; file_history, diff and blame say which session and turn wrote what. preview_rewind shows what putting a folder's files back to before a turn would do, and writes nothing."
const REWINDS = {
  allowed: ' rewind applies a preview (pass its token) and undo reverses a rewind: both change files on disk, so use them only when the user asks, and say what the preview showed first (conflicts, files needing confirmation).',
  refused: ' This server is read-only: the user started it without --allow-rewind, so no tool here changes a file.'
}

export interface RetraceMcpServer {
  server: McpServer
  /** Once the server is closed: stop the imports under way and wait for them and for the rewinds and undos under way. */
  shutdown: () => Promise<void>
}

/**
 * The MCP server over one data folder's runtime: its tools and resources, each calling the
 * contract through the CLI's dispatcher. Rewind and undo exist only with `allowRewind`.
 */
export function createRetraceMcpServer(runtime: Runtime, options: { allowRewind: boolean; importWaitMs: number; log: (text: string) => void }): RetraceMcpServer {
  const call = cliCaller(runtime)
  const writes = new Set<Promise<unknown>>()
  const tracked: typeof call = (method, input) => {
    const work = call(method, input)
    if (method !== 'rewind.apply' && method !== 'rewind.undo') return work
    writes.add(work)
    void work.finally(() => writes.delete(work)).catch(() => undefined)
    return work
  }
  const fresh = new Freshness(runtime, call, options.log, options.importWaitMs)
  const ctx: McpContext = { runtime, call: tracked, fresh, allowRewind: options.allowRewind }
  const server = new McpServer({ name: 'retrace', title: 'Retrace', version: APP_VERSION }, { instructions: ABOUT + (options.allowRewind ? REWINDS.allowed : REWINDS.refused) })
  registerHistoryTools(server, ctx)
  registerFileTools(server, ctx)
  registerRewindTools(server, ctx)
  registerResources(server, ctx)
  return {
    server,
    shutdown: async () => {
      await fresh.stop()
      while (writes.size > 0) await Promise.allSettled([...writes])
    }
  }
}
