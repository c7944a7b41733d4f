import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { Runtime } from '../runtime/runtime'
import type { Output } from '../cli/commands'
import { createRetraceMcpServer } from './server'

/**
 * `retrace mcp [--allow-rewind]`: an MCP server on stdin and stdout, until the client closes
 * stdin (or a signal). stdout carries the protocol alone: everything else goes to stderr. It
 * listens on no network port. Resolves once the imports and rewinds under way have stopped;
 * the caller then closes the store.
 */
export async function mcpCommand(runtime: Runtime, options: { allowRewind: boolean; importWaitMs: number; stop: AbortSignal; io: Output }): Promise<void> {
  const { server, shutdown } = createRetraceMcpServer(runtime, { allowRewind: options.allowRewind, importWaitMs: options.importWaitMs, log: (text) => options.io.err(text) })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve
  })
  await server.connect(transport)
  const close = () => void server.close().catch(() => undefined)
  // The SDK's transport does not notice the end of stdin: a client that goes away closes it
  // (and a reply written after that fails with EPIPE, which must end the server, not crash it
  // in the middle of a rewind).
  process.stdin.once('end', close)
  process.stdin.once('close', close)
  process.stdout.on('error', close)
  if (options.stop.aborted) close()
  else options.stop.addEventListener('abort', close, { once: true })
  const mode = options.allowRewind ? 'rewind and undo allowed (--allow-rewind)' : 'read-only (rewind and undo need --allow-rewind)'
  options.io.err(`Retrace MCP server on stdio, ${mode}; data folder ${runtime.store.dataDir}.`)
  await closed
  await shutdown()
}
