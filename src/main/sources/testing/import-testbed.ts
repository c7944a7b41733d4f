import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract'
import { createDispatcher } from '../../rpc/dispatcher'
import { createRuntime, type Runtime } from '../../runtime/runtime'

/** Where a test runtime's importers look; unset roots point nowhere (never at the developer's own). */
export interface AgentRoots {
  claude?: string
  codex?: string
}

export type ContractCall = <K extends MethodName>(method: K, input: MethodInput<K>) => Promise<MethodOutput<K>>

/**
 * Temporary folders and runtimes for importer tests, removed after each test. Call once at the
 * top of a test file (it registers the `afterEach`).
 */
export function importTestbed(prefix = 'retrace-import-') {
  let dirs: string[] = []
  let runtimes: Runtime[] = []
  afterEach(() => {
    for (const rt of runtimes) rt.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    dirs = []
    runtimes = []
  })

  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(dir)
    return dir
  }

  /** A runtime on a fresh data folder (or `dataDir`), its importers reading only `roots` (`env`: more variables). */
  const runtime = (roots: AgentRoots, options: { followImports?: boolean; dataDir?: string; env?: NodeJS.ProcessEnv } = {}): Runtime => {
    const rt = createRuntime({
      dataDir: options.dataDir ?? join(tempDir(), 'data'),
      host: { binding: 'web' },
      version: 'test',
      env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: roots.claude ?? '/nonexistent', CODEX_HOME: roots.codex ?? '/nonexistent', ...options.env },
      followImports: options.followImports ?? false
    })
    runtimes.push(rt)
    return rt
  }

  return { tempDir, runtime }
}

/** Call the contract the way both bindings do (validation, typed errors); a failure throws with its code. */
export function contractCaller(rt: Runtime): ContractCall {
  const dispatch = createDispatcher<null>({ handlers: rt.handlers, authorize: () => null })
  return async (method, input) => {
    const result = await dispatch(method, input, null)
    if (!result.ok) throw Object.assign(new Error(`${result.error.code}: ${result.error.message}`), { code: result.error.code, rpc: result.error })
    return result.data as never
  }
}
