import type { Dispatch } from '../../src/main/rpc/dispatcher'
import type { Db } from '../../src/main/store/database'
import type { RepeatOptions } from '../lib/stats'

/** What every latency measure gets: the real call path and a bare connection to the same file. */
export interface MeasureContext {
  /** The dispatcher every binding uses, over the runtime's handlers (authorize: () => null). */
  dispatch: Dispatch<null>
  /** The runtime's own connection, for the bare-SQL references (same page cache, same file). */
  db: Db
  workspaceId: number
  /** The 10,000-message session. */
  bigSessionId: string
  repeat: RepeatOptions
}

/** Call a method and fail loudly on an error result: a fast error must never pass for a fast answer. */
export async function call<T>(ctx: MeasureContext, method: string, input: unknown): Promise<T> {
  const result = await ctx.dispatch(method, input, null)
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`)
  return result.data as T
}
