import { setTimeout as sleep } from 'node:timers/promises'
import type { ImportService, WorkspaceImportReport } from './import-service'
import { isImportCancelled } from './import-service'

/** How often every agent's folders are looked through again when nothing says otherwise. */
export const DEFAULT_ROUND_INTERVAL_MS = 45_000

/**
 * The share of a process's CPU its background rounds may take when nothing is new: a history of
 * tens of thousands of files makes even a round that reads none cost seconds (a stat and a
 * lookup per file), which every 45 s would keep an idle app busy.
 */
export const ROUND_CPU_SHARE = 0.01

/** A round cheaper than this keeps the interval whatever it is (a short one set by RETRACE_BACKGROUND_IMPORT_INTERVAL_MS). */
const CHEAP_ROUND_CPU_MS = 250

/** The wait after a round that took `roundCpuMs` of CPU: the interval, or longer so costly rounds stay within ROUND_CPU_SHARE. */
export function nextRoundDelay(intervalMs: number, roundCpuMs: number): number {
  if (roundCpuMs < CHEAP_ROUND_CPU_MS) return intervalMs
  return Math.max(intervalMs, Math.ceil((roundCpuMs * (1 - ROUND_CPU_SHARE)) / ROUND_CPU_SHARE))
}

export interface ImportRounds {
  /** Wait between the end of one round and the start of the next. */
  intervalMs: number
  /** Ends the rounds (and the round under way, between files: what it committed stays). */
  signal: AbortSignal
  /** Told after every round, with what it added (often nothing). */
  onRound?: (report: WorkspaceImportReport) => void
  /** A round that failed; the next one is tried at the next interval all the same. */
  onError?: (error: unknown) => void
  /** Keep the process alive while waiting (a terminal's `import --all --watch`; not the app, which has its window). */
  keepAlive?: boolean
  /**
   * While this says so, rounds are skipped, and a round under way stops within a second (what it
   * committed stays): another process is importing the same histories (the app, for a service).
   */
  pausedWhile?: () => boolean
  /** Told when rounds pause (true) and go on again (false). */
  onPause?: (paused: boolean) => void
  /** Wait before the first round (the app: a service's round under way stops within a second of its start). */
  firstRoundDelayMs?: number
}

/**
 * Import every agent's history (`importAll`: new files and the new bytes of grown ones, into a
 * workspace per recorded folder), again and again until the signal ends it: what the agents
 * write is in Retrace even for workspaces nobody opens, before an agent's clean-up deletes it.
 * An unchanged round reads no file (stat only: tens of milliseconds for thousands of files), and
 * imports yield between files, so the window's requests are never kept waiting long. Open
 * workspaces are followed far more often by live following (live-follow.ts).
 */
export async function runImportRounds(imports: ImportService, rounds: ImportRounds): Promise<void> {
  const { signal } = rounds
  let paused = false
  const pausedNow = () => {
    const now = rounds.pausedWhile?.() ?? false
    if (now !== paused) rounds.onPause?.((paused = now))
    return now
  }
  if (rounds.firstRoundDelayMs) {
    try {
      await sleep(rounds.firstRoundDelayMs, undefined, { signal, ref: rounds.keepAlive ?? false })
    } catch {
      return
    }
  }
  while (!signal.aborted) {
    // The process's CPU (every thread, parse threads too) while the round ran.
    const before = process.cpuUsage()
    const foundSomething = !pausedNow() && (await oneRound(imports, rounds, pausedNow))
    if (signal.aborted) return
    const used = process.cpuUsage(before)
    // Only an idle round is spaced out: after one that found something, more may be on its way.
    const delay = foundSomething ? rounds.intervalMs : nextRoundDelay(rounds.intervalMs, (used.user + used.system) / 1000)
    try {
      await sleep(delay, undefined, { signal, ref: rounds.keepAlive ?? false })
    } catch {
      return // aborted while waiting
    }
  }
}

/** One round; true when it found something (a new session, message or change, a file gone or back). */
async function oneRound(imports: ImportService, rounds: ImportRounds, pausedNow: () => boolean): Promise<boolean> {
  const round = new AbortController()
  const watch = rounds.pausedWhile
    ? setInterval(() => {
        if (pausedNow()) round.abort()
      }, 1000)
    : undefined
  watch?.unref()
  try {
    // (Not `onRound?.(await …)`: an optional call skips its arguments when there is no callback.)
    const report = await imports.importAll({ signal: AbortSignal.any([rounds.signal, round.signal]), markOpened: false })
    rounds.onRound?.(report)
    return roundSummary(report) !== null
  } catch (error) {
    // Stopped (or paused), or a cancel the user asked for (`imports.cancel`): this round only.
    if (!rounds.signal.aborted && !round.signal.aborted && !isImportCancelled(error)) rounds.onError?.(error)
    return false
  } finally {
    clearInterval(watch)
  }
}

/** What a round added, for people: null when it added nothing. */
export function roundSummary(report: WorkspaceImportReport): string | null {
  const added = report.sessions + report.messages + report.fileChanges
  const { marked, cleared } = report.sourcesGone
  if (added === 0 && marked === 0 && cleared === 0) return null
  const parts = added === 0 ? [] : [`${report.files} file${report.files === 1 ? '' : 's'} read: ${report.sessions} new session${report.sessions === 1 ? '' : 's'}, ${report.messages} messages, ${report.fileChanges} file changes`]
  if (marked > 0) parts.push(`${marked} imported file${marked === 1 ? '' : 's'} deleted by ${marked === 1 ? 'its agent' : 'their agents'} (sessions kept)`)
  if (cleared > 0) parts.push(`${cleared} deleted file${cleared === 1 ? '' : 's'} back`)
  return parts.join('; ')
}
