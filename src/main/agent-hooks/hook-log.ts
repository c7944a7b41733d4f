import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, unwatchFile, watchFile, writeFileSync, type Stats } from 'node:fs'
import { join } from 'node:path'

/** What one hook run did: a turn begun or captured, or why it was not. */
export interface HookRun {
  at: number
  agent: string
  phase: 'begin' | 'end'
  /** The workspace folder the agent named (null when its input had none). */
  workspace: string | null
  /** The agent's own session id. */
  agentSession: string | null
  /** Retrace's session and turn, once known. */
  sessionId: string | null
  turn: number | null
  /** Files changed in the turn (end only). */
  changes: number | null
  /** Paths the scan saw but could not track (too long for the system, unreadable…), when there were any. */
  untracked?: number
  ms: number
  error: string | null
  /**
   * Who did the capture: the running app the hook handed its turn to (`app`), or the hook's own
   * process (`hook`; lines written before this field was added have none).
   */
  via?: 'app' | 'hook'
  /** The process that did it (the app skips the runs it logged itself when it follows the log). */
  pid?: number
}

export const HOOK_LOG_FILE = 'hooks.jsonl'
/** Past this size the log keeps only its newest runs: it is a status, not a history. */
const MAX_BYTES = 256 * 1024
const KEEP_RUNS = 500

/**
 * The hook runs' log in Retrace's data folder, one JSON line per run: `retrace hooks status` and
 * the Connect agents panel read the last capture and the last error of each agent from it.
 * Appending never throws (a hook must not fail because its log cannot be written).
 */
export function appendHookRun(dataDir: string, run: HookRun): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
    const file = join(dataDir, HOOK_LOG_FILE)
    appendFileSync(file, `${JSON.stringify(run)}\n`, { mode: 0o600 })
    if (statSync(file).size > MAX_BYTES) {
      const kept = readFileSync(file, 'utf8').split('\n').filter(Boolean).slice(-KEEP_RUNS)
      const temp = `${file}.${process.pid}.tmp`
      writeFileSync(temp, `${kept.join('\n')}\n`, { mode: 0o600 })
      renameSync(temp, file)
    }
  } catch {
    // Nowhere left to say it: the agent's turn goes on regardless.
  }
}

/** Every run logged, oldest first (lines that do not parse are skipped). */
export function readHookRuns(dataDir: string): HookRun[] {
  let text: string
  try {
    text = readFileSync(join(dataDir, HOOK_LOG_FILE), 'utf8')
  } catch {
    return []
  }
  const runs: HookRun[] = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      const run = JSON.parse(line) as HookRun
      if (typeof run.at === 'number' && typeof run.agent === 'string') runs.push(run)
    } catch {
      // A line cut short by a crash: the others still count.
    }
  }
  return runs
}

/** An agent's last successful capture (an `end` that journaled a turn) and its last failed run. */
export function lastRuns(runs: HookRun[], agent: string): { lastCapture: HookRun | null; lastError: HookRun | null } {
  let lastCapture: HookRun | null = null
  let lastError: HookRun | null = null
  for (const run of runs) {
    if (run.agent !== agent) continue
    if (run.error !== null) {
      if (!lastError || run.at >= lastError.at) lastError = run
    } else if (run.phase === 'end' && (!lastCapture || run.at >= lastCapture.at)) lastCapture = run
  }
  return { lastCapture, lastError }
}

/**
 * Call `onRun` for each run logged from now on. Hooks run in the agents' processes, so the app
 * learns of the turns they capture from this log (polled: a hook appends one line per run).
 * Returns the function that stops following.
 */
export function followHookRuns(dataDir: string, onRun: (run: HookRun) => void, intervalMs = 1000): () => void {
  const file = join(dataDir, HOOK_LOG_FILE)
  let offset = sizeOf(file)
  const listener = (current: Stats) => {
    // Trimmed (the log keeps its newest runs): start from its new end.
    if (current.size < offset) offset = current.size
    if (current.size === offset) return
    const length = current.size - offset
    const buffer = Buffer.alloc(length)
    let descriptor: number | null = null
    try {
      descriptor = openSync(file, 'r')
      readSync(descriptor, buffer, 0, length, offset)
    } catch {
      return
    } finally {
      if (descriptor !== null) closeSync(descriptor)
    }
    const text = buffer.toString('utf8')
    const complete = text.lastIndexOf('\n') + 1
    offset += Buffer.byteLength(text.slice(0, complete))
    for (const line of text.slice(0, complete).split('\n')) {
      if (!line) continue
      try {
        onRun(JSON.parse(line) as HookRun)
      } catch {
        // A line that does not parse tells nothing.
      }
    }
  }
  watchFile(file, { interval: intervalMs, persistent: false }, listener)
  return () => unwatchFile(file, listener)
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
