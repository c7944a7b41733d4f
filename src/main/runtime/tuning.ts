import { MAX_SESSION_DEPTH } from '../transcripts/recorder'
import { DEFAULT_IMPORT_TUNING, type ImportTuning, type WatchedRecheckTuning } from '../sources/import-deps'
import { DEFAULT_ROUND_INTERVAL_MS } from '../sources/import-rounds'

/**
 * The environment variables tests (and demos) tune Retrace with, read in this one place and
 * handed to the services through their constructors. A user needs none of them; those a user
 * may set (RETRACE_HOME, RETRACE_LANGGRAPH_DB, RETRACE_CIANAPARROT_DIR, RETRACE_RULES) are
 * read where they are used and documented in the README.
 */
export interface Tuning {
  imports: ImportTuning
  /** How deep forks of forks may nest (RETRACE_MAX_FORK_DEPTH). */
  maxForkDepth: number
  /**
   * The app's import of every agent's history in the background, and `import --all --watch`:
   * off with RETRACE_BACKGROUND_IMPORT=0 (end-to-end tests that watch a workspace's own import),
   * and how long between rounds (RETRACE_BACKGROUND_IMPORT_INTERVAL_MS; a test waits less).
   */
  backgroundImport: { enabled: boolean; intervalMs: number }
  /**
   * How long a reading tool of `retrace mcp` waits for the import of what the agents wrote since
   * before it answers without it (RETRACE_MCP_IMPORT_WAIT_MS; a test waits less).
   */
  mcpImportWaitMs: number
  /**
   * How long a refresh of the histories' index stands before a listing starts another
   * (RETRACE_RECORDED_FRESH_MS; a test that changes history files between listings sets it low).
   */
  recordedFreshForMs: number
}

/** A listing within this long of the last refresh of the histories' index takes the index as it is. */
const RECORDED_FRESH_FOR_MS = 30_000

/** A tool call has a deadline (often a minute): an answer comes well within it. */
const MCP_IMPORT_WAIT_MS = 20_000

export function tuningFrom(env: NodeJS.ProcessEnv): Tuning {
  return {
    imports: {
      // Wait this long before each file, so an end-to-end test can watch an import's progress and cancel it.
      fileDelayMs: bounded(env.RETRACE_IMPORT_FILE_DELAY_MS, 1, 10_000) ?? DEFAULT_IMPORT_TUNING.fileDelayMs,
      // The parse thread's heap (parse-thread.ts), small enough for a test to see it stop.
      ...optional('parseHeapMb', bounded(env.RETRACE_IMPORT_PARSE_HEAP_MB, 8, Number.MAX_SAFE_INTEGER)),
      // A fault: threads started for one large line exit as they start reading (as one out of memory stops).
      ...(env.RETRACE_IMPORT_LARGE_LINE_THREAD_FAULT === 'exit' ? { largeLineThreadsExit: true } : {}),
      // How long a last line must stay unfinished before it is reported (quiet-files.ts); a test waits less.
      incompleteLineAfterMs: bounded(env.RETRACE_INCOMPLETE_LINE_AFTER_MS, 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_IMPORT_TUNING.incompleteLineAfterMs,
      recheck: recheckTuning(env)
    },
    maxForkDepth: whole(env.RETRACE_MAX_FORK_DEPTH, 1, 1000) ?? MAX_SESSION_DEPTH,
    backgroundImport: {
      enabled: !['0', 'off', 'false', 'no'].includes((env.RETRACE_BACKGROUND_IMPORT ?? '').trim().toLowerCase()),
      intervalMs: bounded(env.RETRACE_BACKGROUND_IMPORT_INTERVAL_MS, 10, 24 * 60 * 60 * 1000) ?? DEFAULT_ROUND_INTERVAL_MS
    },
    mcpImportWaitMs: bounded(env.RETRACE_MCP_IMPORT_WAIT_MS, 1, 10 * 60 * 1000) ?? MCP_IMPORT_WAIT_MS,
    recordedFreshForMs: bounded(env.RETRACE_RECORDED_FRESH_MS, 1, 24 * 60 * 60 * 1000) ?? RECORDED_FRESH_FOR_MS
  }
}

/**
 * The running app's watched re-check (watched-recheck.ts): how often a full pass runs all the same
 * (RETRACE_IMPORT_FULL_PASS_MS), and a fault for tests (RETRACE_IMPORT_WATCH_FAULT): `start`, a
 * watch that cannot start; `deaf`, one that starts and never reports (every event missed).
 */
function recheckTuning(env: NodeJS.ProcessEnv): WatchedRecheckTuning {
  const fullPassEveryMs = bounded(env.RETRACE_IMPORT_FULL_PASS_MS, 1, 24 * 60 * 60 * 1000) ?? DEFAULT_IMPORT_TUNING.recheck.fullPassEveryMs
  const fault = env.RETRACE_IMPORT_WATCH_FAULT
  if (fault === 'start') return { fullPassEveryMs, watchFolder: () => { throw new Error('RETRACE_IMPORT_WATCH_FAULT=start') } }
  if (fault === 'deaf') return { fullPassEveryMs, watchFolder: () => ({ close: () => undefined }) }
  return { fullPassEveryMs }
}

/** The variable as a number clamped into [min, max], or undefined if it is unset or not a positive number. */
function bounded(value: string | undefined, min: number, max: number): number | undefined {
  const number = Number(value)
  if (value === undefined || !Number.isFinite(number) || number < min) return undefined
  return Math.min(number, max)
}

function whole(value: string | undefined, min: number, max: number): number | undefined {
  const number = Number(value)
  return Number.isInteger(number) && number >= min && number <= max ? number : undefined
}

const optional = <K extends string>(key: K, value: number | undefined): { [P in K]?: number } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: number }))
