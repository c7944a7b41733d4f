import {
  ErrorCodeSchema,
  RetraceError,
  type EventMessage,
  type MethodInput,
  type MethodName,
  type MethodOutput
} from '../../../shared/contract'
import { electronTransport } from './electron-transport'
import { takeWebToken } from './token'
import type { ConnectionState, Transport } from './transport'
import { webTransport } from './web-transport'

let transport: Transport | null = null

export type TransportSetup = { ok: true; kind: Transport['kind'] } | { ok: false; reason: 'missing-token' }

/**
 * Pick the binding once at start-up: the preload's bridge in the desktop app, otherwise the
 * web server this page came from (which needs the token from the URL `retrace serve` printed).
 */
export function initTransport(): TransportSetup {
  if (window.retrace) {
    transport = electronTransport(window.retrace)
    return { ok: true, kind: 'electron' }
  }
  const token = takeWebToken()
  if (!token) return { ok: false, reason: 'missing-token' }
  transport = webTransport(token)
  return { ok: true, kind: 'web' }
}

function current(): Transport {
  if (!transport) throw new Error('initTransport() must run before the first call.')
  return transport
}

/**
 * The one typed entry point to the contract: resolves to the method's output or throws a
 * RetraceError carrying the server's stable code and user-facing message.
 */
export async function call<K extends MethodName>(name: K, input: MethodInput<K>): Promise<MethodOutput<K>> {
  const result = await current().request(name, input)
  if (result.ok) {
    // Both bindings produce `data` from the method's output schema in the main process.
    return result.data as MethodOutput<K>
  }
  const code = ErrorCodeSchema.safeParse(result.error.code)
  throw new RetraceError(code.success ? code.data : 'INTERNAL', result.error.message)
}

export function onEvent(listener: (event: EventMessage) => void): () => void {
  return current().onEvent(listener)
}

export function onConnectionChange(listener: (state: ConnectionState) => void): () => void {
  return current().onConnectionChange(listener)
}
