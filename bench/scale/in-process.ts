import { createDispatcher } from '../../src/main/rpc/dispatcher'
import { createRuntime, type Runtime } from '../../src/main/runtime/runtime'
import type { ScaleContext } from './context'

/** A running Retrace on the bench's store, as the app holds it, called through the dispatcher every binding uses. */
export interface Running {
  runtime: Runtime
  call<T>(method: string, input: unknown): Promise<T>
  close(): void
}

export async function openRunning(ctx: ScaleContext): Promise<Running> {
  const runtime = createRuntime({
    dataDir: ctx.dataDir,
    host: { binding: 'web' },
    version: 'bench',
    env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent', ...ctx.corpus.env },
    followImports: false
  })
  await runtime.ready
  const dispatch = createDispatcher<null>({ handlers: runtime.handlers, authorize: () => null })
  return {
    runtime,
    async call<T>(method: string, input: unknown): Promise<T> {
      // A fast error must never pass for a fast answer.
      const result = await dispatch(method, input, null)
      if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`)
      return result.data as T
    },
    close: () => runtime.close()
  }
}
