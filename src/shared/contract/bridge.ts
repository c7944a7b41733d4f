import type { MethodInput, MethodName } from './methods'
import type { RpcResult } from './errors'
import type { EventMessage } from './events'
import type { MethodOutput } from './methods'

/** The IPC channel of one method; the only place channel names are made. */
export const channelOf = (name: MethodName): string => `retrace:${name}`
export const EVENT_CHANNEL = 'retrace:event'

/**
 * What the preload exposes as `window.retrace`: one function per contract method, each
 * resolving to the wrapped result, and one subscription to pushed events.
 */
export type RetraceBridge = {
  [K in MethodName]: (input: MethodInput<K>) => Promise<RpcResult<MethodOutput<K>>>
} & {
  onEvent(listener: (event: EventMessage) => void): () => void
}
