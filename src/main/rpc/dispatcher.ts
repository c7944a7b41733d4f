import { type z } from 'zod'
import {
  RetraceError,
  isMethodName,
  methods,
  type MethodName,
  type MethodOutput,
  type ParsedInput,
  type RpcResult
} from '../../shared/contract'

/** The implementation of every contract method, called with already-validated input. */
export type Handlers = {
  [K in MethodName]: (input: ParsedInput<K>) => MethodOutput<K> | Promise<MethodOutput<K>>
}

/** Returns null when the caller may call, or the reason it may not. */
export type Authorize<Caller> = (caller: Caller) => string | null

export interface DispatcherOptions<Caller> {
  handlers: Handlers
  authorize: Authorize<Caller>
  /** Unexpected failures (bugs, I/O) are logged here; the caller only sees a generic message. */
  onInternalError?: (method: string, error: unknown) => void
}

export type Dispatch<Caller> = (method: string, input: unknown, caller: Caller) => Promise<RpcResult<unknown>>

/**
 * The one handler wrapper both bindings use: check the caller, parse the input, call the
 * service, check the output, and turn every outcome into `{ok, data}` or `{ok:false, error}`.
 * Nothing a caller sends can make it throw.
 */
export function createDispatcher<Caller>(options: DispatcherOptions<Caller>): Dispatch<Caller> {
  return async (method, rawInput, caller) => {
    try {
      const refusal = options.authorize(caller)
      if (refusal !== null) return failure('UNAUTHORIZED', refusal)
      if (!isMethodName(method)) return failure('UNKNOWN_METHOD', `There is no method named "${String(method).slice(0, 100)}".`)
      const spec = methods[method]
      const parsed = spec.input.safeParse(rawInput ?? {})
      if (!parsed.success) return failure('VALIDATION', `Invalid input for ${method}: ${describeIssues(parsed.error)}`)
      const handler = options.handlers[method] as (input: unknown) => unknown
      const output: unknown = await handler(parsed.data)
      const checked = spec.output.safeParse(output)
      if (!checked.success) {
        options.onInternalError?.(method, new Error(`Output of ${method} broke the contract: ${describeIssues(checked.error)}`))
        return failure('INTERNAL', `Retrace produced an invalid answer for ${method}. This is a bug; please report it.`)
      }
      return { ok: true, data: checked.data }
    } catch (error) {
      if (error instanceof RetraceError) return failure(error.code, error.message)
      options.onInternalError?.(method, error)
      const detail = error instanceof Error ? error.message : String(error)
      return failure('INTERNAL', `${method} failed unexpectedly: ${detail}`)
    }
  }
}

function failure(code: RetraceError['code'], message: string): RpcResult<never> {
  return { ok: false, error: { code, message } }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ')
}
