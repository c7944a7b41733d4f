import { fork } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { workerScriptPath } from '../../journal/worker-path'
import type { ReaderReply, ReaderRequest, TableRead, TableResult } from './protocol'

export type { TableRead, TableResult } from './protocol'

/** A read of a big but genuine store finishes well within this; one that does not is skipped. */
export const DEFAULT_TIME_LIMIT_MS = 60_000
/** `RETRACE_FOREIGN_DB_TIME_LIMIT_MS`: another limit (a very large store; tests). */
const TIME_LIMIT_VARIABLE = 'RETRACE_FOREIGN_DB_TIME_LIMIT_MS'
/** The reader ends itself this long after the limit, should nobody be left to kill it. */
const SELF_KILL_GRACE_MS = 5_000

/**
 * A read stopped at its time limit, thrown by the importers' readers: the import then keeps no
 * fingerprint of the store, and the next import reads it again (a busy machine; a limit since
 * raised). A refused or broken file, by contrast, is only read again once it changes.
 */
export class ReadTimeLimit extends Error {}

export type ForeignDbRead =
  | { ok: true; tables: Record<string, TableResult> }
  /**
   * Nothing was read; `problem` names the file and says why, for the import report. `refused`: a
   * view, a trigger…; `time-limit`: it took too long; `error`: missing, not SQLite, corrupt
   * (`reason` is SQLite's or the system's message alone).
   */
  | { ok: false; kind: 'refused' | 'time-limit' | 'error'; reason: string; problem: string }

/**
 * Read tables of an agent's SQLite database (a LangGraph checkpoint database, y-agent's store…)
 * without touching it and without letting it stall Retrace: the copy, the schema check and the
 * queries run in a process of its own (foreign-db-reader.mts), killed at the time limit. A view,
 * a virtual table, a trigger or a generated column where a table is read refuses the file.
 */
export async function readForeignDb(path: string, tables: Readonly<Record<string, TableRead>>, options: { timeLimitMs?: number } = {}): Promise<ForeignDbRead> {
  const timeLimitMs = options.timeLimitMs ?? timeLimitFromEnvironment()
  const copyDir = await mkdtemp(join(tmpdir(), 'retrace-source-db-'))
  try {
    const outcome = await runReader({ path, copyDir, tables, deadlineMs: timeLimitMs + SELF_KILL_GRACE_MS }, timeLimitMs)
    if (outcome.ok) return outcome
    const { kind, reason } = outcome
    if (kind === 'refused') return { ok: false, kind, reason, problem: `${path} was not read (refused): ${reason}. Retrace reads an agent's database only from plain tables; if this file is not your agent's, move it out of the folder.` }
    if (kind === 'time-limit') return { ok: false, kind, reason, problem: `${path} ${reason} and was skipped: nothing of it was imported. If it is a very large database, set ${TIME_LIMIT_VARIABLE} to a longer limit (in milliseconds).` }
    return { ok: false, kind, reason, problem: `${path} cannot be read: ${reason}` }
  } finally {
    await rm(copyDir, { recursive: true, force: true })
  }
}

function timeLimitFromEnvironment(): number {
  const value = Number(process.env[TIME_LIMIT_VARIABLE])
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_TIME_LIMIT_MS
}

/** The reader's script: its own entry when built, the .mts file beside this one from source. */
const readerPath = (): string => workerScriptPath('foreign-db-reader', 'foreign-db-reader.mts', __dirname)

type Outcome = ReaderReply | { ok: false; kind: 'time-limit'; reason: string }

/** Run the reader on one request; it never throws (a failure to start or a crash is an `error`). */
function runReader(request: ReaderRequest, timeLimitMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = fork(readerPath(), [], {
      // Under Electron, process.execPath is the app: run it as plain Node.
      env: process.versions.electron ? { ...process.env, ELECTRON_RUN_AS_NODE: '1' } : process.env,
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc']
    })
    let reply: ReaderReply | undefined
    let timedOut = false
    let stderr = ''
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-2000)
    })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeLimitMs)
    child.once('message', (message: ReaderReply) => {
      reply = message
    })
    child.once('error', (error) => {
      clearTimeout(timer)
      resolve({ ok: false, kind: 'error', reason: `the reader could not start (${error.message})` })
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      if (reply) return resolve(reply)
      if (timedOut) return resolve({ ok: false, kind: 'time-limit', reason: `took longer than ${seconds(timeLimitMs)} to read` })
      const detail = lastLine(stderr)
      resolve({ ok: false, kind: 'error', reason: `the reader stopped (${signal ? `signal ${signal}` : `exit code ${code}`})${detail ? `: ${detail}` : ''}` })
    })
    child.send(request, () => undefined)
  })
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? ''
  )
}
