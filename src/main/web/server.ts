import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import sirv from 'sirv'
import { WebSocketServer } from 'ws'
import { MAX_IMPORT_JSON_CHARS, RetraceError, type EventMessage } from '../../shared/contract'
import { createDispatcher } from '../rpc/dispatcher'
import type { Runtime } from '../runtime/runtime'
import { RequestGuard, type WebCaller } from './request-guard'
import { setSecurityHeaders } from './security-headers'

export const RPC_PREFIX = '/api/rpc/'
export const EVENTS_PATH = '/api/events'
export const TOKEN_HEADER = 'x-retrace-token'
const MAX_BODY_BYTES = 1024 * 1024
/** `export.importJson` carries a whole JSON export as a string: JSON-escaped, it can grow to about twice its length. */
const MAX_IMPORT_BODY_BYTES = 2 * MAX_IMPORT_JSON_CHARS + MAX_BODY_BYTES

export interface WebServer {
  url: string
  port: number
  token: string
  close(): Promise<void>
}

export interface WebServerOptions {
  runtime: Runtime
  /** 0 picks a free port. */
  port?: number
  /** The built renderer; without it only the API is served. */
  rendererDir?: string
  /** Fixed token for tests; a fresh random one otherwise. */
  token?: string
  log?: (message: string) => void
}

/**
 * The web binding: the contract over HTTP (POST /api/rpc/<method>) and pushed events over a
 * WebSocket (/api/events), plus the built renderer, on 127.0.0.1 only.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  const log = options.log ?? (() => {})

  // Listen first: the Host and Origin the guard accepts depend on the port we get.
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenRefusal(error, options.port ?? 0)))
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const guard = new RequestGuard(port, token)

  const dispatch = createDispatcher<WebCaller>({
    handlers: options.runtime.handlers,
    authorize: (caller) => guard.check(caller),
    onInternalError: (method, error) => log(`${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  })
  const serveStatic = options.rendererDir && existsSync(options.rendererDir) ? sirv(options.rendererDir, { dev: false, etag: true }) : null

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Nothing a request contains may take the server down: a throw here would be uncaught.
    try {
      handleRequest(req, res)
    } catch (error) {
      log(`request ${req.method ?? ''} ${req.url ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
      if (!res.headersSent) respond(res, 500, { ok: false, error: { code: 'INTERNAL', message: 'The server could not handle this request.' } })
    }
  })

  function handleRequest(req: IncomingMessage, res: ServerResponse): void {
    setSecurityHeaders(res)
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname.startsWith(RPC_PREFIX)) {
      const method = safeDecode(url.pathname.slice(RPC_PREFIX.length))
      if (method === null) return respond(res, 400, { ok: false, error: { code: 'VALIDATION', message: 'The method name in the URL is not valid percent-encoding.' } })
      void handleRpc(req, res, method)
      return
    }
    const refusal = guard.checkOrigin(callerOf(req))
    if (refusal) return respond(res, 403, { ok: false, error: { code: 'UNAUTHORIZED', message: refusal } })
    if (req.method !== 'GET' && req.method !== 'HEAD') return respond(res, 405, { ok: false, error: { code: 'VALIDATION', message: 'Method not allowed.' } })
    if (!serveStatic) return respond(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: 'The app is not built; run `npm run build`.' } })
    serveStatic(req, res, () => respond(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: 'Not found.' } }))
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    try {
      await answerRpc(req, res, method)
    } catch (error) {
      log(`${method}: ${error instanceof Error ? error.message : String(error)}`)
      if (!res.headersSent) respond(res, 500, { ok: false, error: { code: 'INTERNAL', message: 'The server could not handle this request.' } })
    }
  }

  async function answerRpc(req: IncomingMessage, res: ServerResponse, method: string): Promise<void> {
    if (req.method !== 'POST') return respond(res, 405, { ok: false, error: { code: 'VALIDATION', message: 'Contract calls are POST requests.' } })
    const caller = callerOf(req)
    // Checked here as well as in the dispatcher so an unauthorized body is never even read.
    const refusal = guard.check(caller)
    if (refusal) return respond(res, 403, { ok: false, error: { code: 'UNAUTHORIZED', message: refusal } })
    let input: unknown
    try {
      const body = await readBody(req, method === 'export.importJson' ? MAX_IMPORT_BODY_BYTES : MAX_BODY_BYTES)
      input = body.length === 0 ? {} : JSON.parse(body)
    } catch (error) {
      return respond(res, 400, { ok: false, error: { code: 'VALIDATION', message: error instanceof BodyTooLarge ? error.message : 'The request body is not valid JSON.' } })
    }
    // Whatever the contract answers travels as 200 with {ok:false} in the body: a failed open
    // is an answer, not a transport failure (and browsers log every 4xx as a console error).
    respond(res, 200, await dispatch(method, input, caller))
  }

  // Clients only listen; anything they send is ignored, and a frame over maxPayload makes the
  // socket emit 'error', which must be handled or it would throw and stop the server.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  sockets.on('connection', (ws) => ws.on('error', () => ws.terminate()))
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    let url: URL
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1')
    } catch {
      socket.destroy()
      return
    }
    const refusal = url.pathname !== EVENTS_PATH ? 'Unknown path.' : guard.check({ ...callerOf(req), token: url.searchParams.get('token') ?? undefined })
    if (refusal !== null) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${refusal}`)
      return
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req))
  })
  const unsubscribe = options.runtime.feed.subscribe((event: EventMessage) => {
    const frame = JSON.stringify(event)
    for (const client of sockets.clients) if (client.readyState === 1) client.send(frame)
  })

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      unsubscribe()
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

function callerOf(req: IncomingMessage): WebCaller {
  const token = req.headers[TOKEN_HEADER]
  return {
    host: req.headers.host,
    origin: req.headers.origin,
    token: Array.isArray(token) ? token[0] : token
  }
}

function respond(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(text)
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new BodyTooLarge(`The request body is larger than ${limit} bytes.`))
        req.destroy()
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** Why `serve --port N` could not listen, in a sentence (a port taken, or one only root may open). */
function listenRefusal(error: Error, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE') return new RetraceError('CONFLICT', `Port ${port} on 127.0.0.1 is already in use (another \`retrace serve\`?). Choose another with --port N, or leave --port out for a free one.`)
  if (code === 'EACCES') return new RetraceError('CONFLICT', `Port ${port} on 127.0.0.1 may only be opened by an administrator here. Choose one from 1024 up with --port N, or leave --port out for a free one.`)
  return error
}
