import { RetraceError, type MethodInput, type MethodName, type MethodOutput } from '../../shared/contract'
import { createDispatcher } from '../rpc/dispatcher'
import type { Runtime } from '../runtime/runtime'

/**
 * The CLI goes through the same handler wrapper as the windows, so it validates and fails
 * the same way. The local user running the command is the trusted caller.
 */
export function cliCaller(runtime: Runtime) {
  const dispatch = createDispatcher<'cli'>({ handlers: runtime.handlers, authorize: () => null })
  return async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
    const result = await dispatch(method, input, 'cli')
    if (!result.ok) throw new RetraceError(result.error.code, result.error.message)
    return result.data as MethodOutput<K>
  }
}
export type CliCall = ReturnType<typeof cliCaller>
