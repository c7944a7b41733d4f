import type { MethodName, RetraceBridge, RpcResult } from '../../../shared/contract'
import type { Transport } from './transport'

/** The desktop app: the preload's `window.retrace`, one function per contract method. */
export function electronTransport(bridge: RetraceBridge): Transport {
  return {
    kind: 'electron',
    request(name: MethodName, input: unknown): Promise<RpcResult<unknown>> {
      // The bridge is a mapped type over every method; the typed client guarantees that
      // `input` matches `name`, so calling through the widened signature is sound.
      const fn = bridge[name] as (input: unknown) => Promise<RpcResult<unknown>>
      return fn(input)
    },
    onEvent: (listener) => bridge.onEvent(listener),
    // IPC cannot drop events while the window lives.
    onConnectionChange: () => () => {}
  }
}
