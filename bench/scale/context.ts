import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { projectRoot } from '../lib/child'
import type { ScaleCorpus } from './corpus'

/** What every measure module gets: the corpus, the store the import fills, the CLI's start-up cost. */
export interface ScaleContext {
  corpus: ScaleCorpus
  /** Retrace's data folder for this run (empty until the import measure fills it). */
  dataDir: string
  /** `retrace --version`, best of three: what every command costs before it does anything. */
  startupMs: number
}

export interface NodeRun<T> {
  result: T
  ms: number
  peakRssBytes: number
}

export const CLI = 'bin/retrace.js'

/** `env` for a child: the corpus's home and agents' folders, nothing of this machine's own. */
export function corpusEnv(ctx: ScaleContext): Record<string, string> {
  return { ...ctx.corpus.env, RETRACE_BACKGROUND_IMPORT: '0' }
}

/** Run `node ARGS` with bench/import's RSS reporter preloaded: its JSON output, wall time and peak RSS. */
export function runNode<T>(args: string[], env: Record<string, string> = {}): NodeRun<T> {
  const started = performance.now()
  const child = spawnSync(process.execPath, ['--require', join(projectRoot(), 'bench/import/report-rss.cjs'), ...args], {
    cwd: projectRoot(),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: '/nonexistent', ...env }
  })
  const ms = performance.now() - started
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} failed (${child.status}): ${child.stderr}`)
  const peak = /bench-peak-rss-bytes (\d+)/.exec(child.stderr)?.[1]
  const out = child.stdout.trim()
  const result = (out.startsWith('{') || out.startsWith('[') ? JSON.parse(out) : out) as T
  return { result, ms, peakRssBytes: Number(peak ?? 0) }
}
