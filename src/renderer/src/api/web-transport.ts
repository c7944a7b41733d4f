import { events, isEventName, type EventMessage, type MethodName, type RpcResult } from '../../../shared/contract'
import { TransportError, type ConnectionState, type Transport } from './transport'

const RPC_PREFIX = '/api/rpc/'
const EVENTS_PATH = '/api/events'
const TOKEN_HEADER = 'X-Retrace-Token'
const MIN_BACKOFF_MS = 500
const MAX_BACKOFF_MS = 15_000
const IDLE_CLOSE_MS = 1_000

/**
 * The web binding (`retrace serve`): each call is a POST whose body is always an RpcResult,
 * whatever the HTTP status; events arrive over one WebSocket that reconnects with backoff.
 */
export function webTransport(token: string): Transport {
  const eventListeners = new Set<(event: EventMessage) => void>()
  const connectionListeners = new Set<(state: ConnectionState) => void>()
  let socket: WebSocket | null = null
  let attempt = 0
  let retryTimer: number | undefined
  let state: ConnectionState = 'connecting'

  const setState = (next: ConnectionState): void => {
    if (next === state) return
    state = next
    for (const listener of connectionListeners) listener(next)
  }

  const connect = (): void => {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:'
    const ws = new WebSocket(`${scheme}//${window.location.host}${EVENTS_PATH}?token=${encodeURIComponent(token)}`)
    socket = ws
    ws.onopen = () => {
      attempt = 0
      setState('connected')
    }
    ws.onmessage = (frame: MessageEvent<unknown>) => {
      const event = parseEvent(frame.data)
      if (event) for (const listener of eventListeners) listener(event)
    }
    ws.onclose = () => {
      if (socket !== ws) return
      socket = null
      setState('reconnecting')
      const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** attempt)
      attempt += 1
      retryTimer = window.setTimeout(() => {
        retryTimer = undefined
        connect()
      }, delay)
    }
  }

  // Nobody listening (e.g. the token was refused and the app shows only an explanation):
  // stop reconnecting rather than knocking on the server forever. Deferred, because React's
  // development double-mount unsubscribes and resubscribes at once.
  let idleTimer: number | undefined
  const closeWhenIdle = (): void => {
    window.clearTimeout(idleTimer)
    idleTimer = window.setTimeout(() => {
      if (eventListeners.size === 0) closeSocket()
    }, IDLE_CLOSE_MS)
  }
  const closeSocket = (): void => {
    window.clearTimeout(retryTimer)
    retryTimer = undefined
    const ws = socket
    socket = null
    ws?.close()
    attempt = 0
  }

  const ensureSocket = (): void => {
    if (!socket && retryTimer === undefined) connect()
  }

  return {
    kind: 'web',
    async request(name: MethodName, input: unknown): Promise<RpcResult<unknown>> {
      let response: Response
      try {
        response = await fetch(`${RPC_PREFIX}${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [TOKEN_HEADER]: token },
          body: JSON.stringify(input),
          cache: 'no-store',
          credentials: 'omit'
        })
      } catch {
        throw new TransportError('Cannot reach the Retrace server. Is `retrace serve` still running (and the SSH tunnel, if you use one)?')
      }
      let body: unknown
      try {
        body = await response.json()
      } catch {
        throw new TransportError(`The Retrace server answered ${response.status} without a valid reply. Restart \`retrace serve\` and open the URL it prints.`)
      }
      if (!isRpcResult(body)) throw new TransportError('The Retrace server sent a reply this page does not understand. Reload the page.')
      return body
    },
    onEvent(listener) {
      eventListeners.add(listener)
      ensureSocket()
      return () => {
        eventListeners.delete(listener)
        if (eventListeners.size === 0) closeWhenIdle()
      }
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener)
      return () => {
        connectionListeners.delete(listener)
      }
    }
  }
}

function isRpcResult(value: unknown): value is RpcResult<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false
  if (value.ok === true) return 'data' in value
  return value.ok === false && 'error' in value && typeof value.error === 'object' && value.error !== null
}

/** Frames come from the network: check them against the contract's event schemas. */
function parseEvent(data: unknown): EventMessage | null {
  if (typeof data !== 'string') return null
  let frame: unknown
  try {
    frame = JSON.parse(data)
  } catch {
    return null
  }
  if (typeof frame !== 'object' || frame === null || !('name' in frame) || !('payload' in frame)) return null
  const { name, payload } = frame
  if (typeof name !== 'string' || !isEventName(name)) return null
  const parsed = events[name].safeParse(payload)
  // The schema for `name` produced the payload, so the pair is one of EventMessage's members.
  return parsed.success ? ({ name, payload: parsed.data } as EventMessage) : null
}
