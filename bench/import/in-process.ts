import { performance } from 'node:perf_hooks'
import { createRuntime } from '../../src/main/runtime/runtime'

/**
 * `import --all` run again inside a running Retrace (as the app does when it looks for new
 * lines), on a store that already holds everything: the first call (a full pass: a stat of
 * every file), then the median of `runs` more (what the watch of the agents' folders saw
 * change, nothing here). No process start-up, no module loading.
 */
export async function reimportInProcess(dataDir: string, env: Record<string, string>, runs = 5): Promise<{ firstMs: number; medianMs: number; files: number }> {
  const runtime = createRuntime({
    dataDir,
    host: { binding: 'web' },
    version: 'bench',
    env: { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent', ...env },
    // A running app (its history watch: watched-recheck.ts), not a one-shot command.
    followImports: true
  })
  try {
    await runtime.recovery
    const times: number[] = []
    let files = 0
    for (let run = 0; run <= runs; run++) {
      const started = performance.now()
      const report = await runtime.imports.importAll()
      times.push(performance.now() - started)
      files += report.files
    }
    const [firstMs = 0, ...rest] = times
    rest.sort((a, b) => a - b)
    return { firstMs, medianMs: rest[Math.floor(rest.length / 2)] ?? 0, files }
  } finally {
    runtime.close()
  }
}
