import { chmodSync, lstatSync, unlinkSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { isAbsolute } from 'node:path'
import { z } from 'zod'
import { HANDOFF_VERSION, hookSocketPath, MAX_HANDOFF_BYTES, type HandoffReply } from '../agent-hooks/hook-handoff'
import type { HookTurnRequest } from './hook-turn'

/** A connection that has not sent its request by then is dropped (a hook sends it at once). */
const REQUEST_WAIT_MS = 10_000
/** How long a start-up waits to learn whether another Retrace answers on the socket. */
const PROBE_MS = 1000

const Folder = z.string().min(1).max(4096)
const RequestSchema = z
  .object({
    version: z.literal(HANDOFF_VERSION),
    agent: z.string().min(1).max(64),
    phase: z.enum(['begin', 'end']),
    payload: z.unknown(),
    cwd: Folder.refine(isAbsolute, 'an absolute folder'),
    env: z.object({ CLAUDE_PROJECT_DIR: Folder.optional(), GEMINI_PROJECT_DIR: Folder.optional() }).strict()
  })
  .strict()

export interface HookHandoffServer {
  /** Whether this process took the socket (false: another Retrace has it, or it could not listen). */
  listening: Promise<boolean>
  /** Stop taking turns (the socket file goes); captures under way go on. */
  close(): void
  /** Resolves when no capture is under way. */
  idle(): Promise<void>
}

/**
 * Take the turns agents' hooks hand over (agent-hooks/hook-handoff.ts) on `<data-dir>/hooks.sock`:
 * the hook then pays a Node start and a round trip, not a CLI load, a store opening and a scan
 * worker's start, and the capture runs in this process, whose scan worker stays warm between
 * turns. Only the data folder's owner can connect: the folder is 0700 and the socket 0600. Each
 * request is checked (zod), bounded in size, one per connection; nothing in it is run. A socket
 * file a killed process left behind is replaced; one another live Retrace answers on is left to it.
 * Not on Windows (no named pipes): hooks there capture their turns themselves.
 */
export function serveHookHandoffs(options: { dataDir: string; capture: (request: HookTurnRequest) => Promise<string | null>; log?: (message: string) => void }): HookHandoffServer {
  const path = hookSocketPath(options.dataDir)
  const underWay = new Set<Promise<void>>()
  let server: Server | null = null
  let closed = false

  const handle = (socket: Socket) => {
    let state: 'reading' | 'taken' | 'refused' = 'reading'
    let gone = false
    const chunks: Buffer[] = []
    let size = 0
    socket.setTimeout(REQUEST_WAIT_MS, () => socket.destroy())
    socket.on('error', () => undefined) // a hook that gave up: nothing to tell it
    socket.on('end', () => (gone = true))
    socket.on('close', () => (gone = true))
    socket.on('data', (chunk: Buffer) => {
      if (state === 'refused') return
      if (state === 'taken') return void socket.destroy() // one request per connection, and nothing after it
      const newline = chunk.indexOf(0x0a)
      size += newline === -1 ? chunk.length : newline
      if (size > MAX_HANDOFF_BYTES) {
        state = 'refused'
        return reply(socket, { refused: `a request is at most ${MAX_HANDOFF_BYTES} bytes` })
      }
      if (newline === -1) return void chunks.push(chunk)
      if (newline !== chunk.length - 1) return void socket.destroy()
      state = 'taken'
      socket.setTimeout(0)
      const line = Buffer.concat([...chunks, chunk.subarray(0, newline)]).toString('utf8')
      const done = take(socket, line, () => gone)
        .catch((error: unknown) => options.log?.(`A hook's turn failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => underWay.delete(done))
      underWay.add(done)
    })
  }

  const take = async (socket: Socket, line: string, hasGone: () => boolean) => {
    const parsed = RequestSchema.safeParse(parseJson(line))
    if (!parsed.success) return reply(socket, { refused: `not a hook's request: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ')}` })
    // A hook that stopped waiting (this process was busy) captures its turn itself: do not do it twice.
    await new Promise((resolve) => setImmediate(resolve))
    if (hasGone()) return
    const { agent, phase, payload, cwd, env } = parsed.data
    socket.write(`${JSON.stringify({ accepted: true } satisfies HandoffReply)}\n`)
    const answer = await options.capture({ agent, phase, payload, cwd, env })
    reply(socket, { answer })
  }

  const listening = (async () => {
    if (process.platform === 'win32') return false
    if (path === null) {
      options.log?.(`Agents' hooks will capture their turns themselves: the data folder's path is too long for a socket (${options.dataDir}).`)
      return false
    }
    if (await answers(path)) return false // another Retrace has this data folder open and takes its hooks' turns
    removeStaleSocket(path)
    const listener = createServer({ allowHalfOpen: false }, handle)
    try {
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject)
        listener.listen(path, () => {
          listener.off('error', reject)
          resolve()
        })
      })
      chmodSync(path, 0o600)
    } catch (error) {
      listener.close()
      options.log?.(`Agents' hooks will capture their turns themselves: cannot listen on ${path}: ${error instanceof Error ? error.message : String(error)}`)
      return false
    }
    if (closed) {
      listener.close()
      return false
    }
    server = listener
    return true
  })()

  return {
    listening,
    close() {
      closed = true
      server?.close()
      server = null
    },
    idle: async () => {
      while (underWay.size > 0) await Promise.all(underWay)
    }
  }
}

function reply(socket: Socket, message: HandoffReply): void {
  socket.end(`${JSON.stringify(message)}\n`)
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown
  } catch {
    return undefined
  }
}

/** Whether a live process accepts connections on the socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path)
    const done = (live: boolean) => {
      clearTimeout(timer)
      probe.destroy()
      resolve(live)
    }
    const timer = setTimeout(() => done(false), PROBE_MS)
    probe.once('connect', () => done(true))
    probe.once('error', () => done(false))
  })
}

/** A socket file no one answers on: its process was killed. Anything else at the path is left alone. */
function removeStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path)
  } catch {
    // none there
  }
}
