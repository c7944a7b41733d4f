import type { EventMessage, MethodName, RpcResult } from '../../../shared/contract'

/**
 * Whether pushed events are flowing: the web binding opens its WebSocket after the first calls
 * (`connecting`) and can lose it (`reconnecting`). Either way, events sent meanwhile were missed.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting'

/**
 * One way of reaching the main process: Electron IPC through the preload bridge, or the web
 * binding's HTTP + WebSocket. The typed client sits on top, so features never see which.
 */
export interface Transport {
  readonly kind: 'electron' | 'web'
  request(name: MethodName, input: unknown): Promise<RpcResult<unknown>>
  onEvent(listener: (event: EventMessage) => void): () => void
  /** Called on every change; on `connected` after another state, events may have been missed. */
  onConnectionChange(listener: (state: ConnectionState) => void): () => void
}

/**
 * A failure to reach the server at all (network down, server stopped). Not a RetraceError:
 * it carries no contract code and is worth retrying, unlike most RetraceErrors.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError'
}
