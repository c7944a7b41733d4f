import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { HistoryFile, SnapshotRead, SnapshotSession } from '../adapter'
import type { SourceRecord } from '../records'
import { DEFAULT_HISTORY, inputHistoryOf } from './discover'
import { commitChanges } from './git-commits'
import { splitHistory } from './history-blocks'
import { promptTimes, readInputHistory, type InputEntry } from './input-history'
import { sessionRecords, type CommitMark } from './session-records'

/** Larger chat histories are not read (Aider's own, after two years of daily use, is 4 MB). */
const MAX_BYTES = 256 * 1024 * 1024
const STARTED = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

export interface HistorySessions extends SnapshotRead {
  /** Aider's commits named in each session (by key), to be read from the repository. */
  commits: Map<string, CommitMark[]>
}

/**
 * A chat history file read whole, read-only: one session per `# aider chat started at` header,
 * with the exact file changes of the commits Aider made in it when the repository beside the
 * file (its git root) still has them. A session's key is the byte offset of its header (the
 * file is only appended to, so it never moves; see keyPrefix) and its fingerprint the hash of its bytes: when
 * Aider appends, only the last session changes and is imported again. Prompts take their exact
 * times from `.aider.input.history` where they match an entry without doubt (input-history.ts).
 */
export async function readChatHistory(file: HistoryFile): Promise<SnapshotRead> {
  let bytes: Buffer
  try {
    bytes = readFileSync(file.path)
  } catch (error) {
    return { sessions: [], problems: [`cannot read ${file.path}: ${(error as Error).message}`] }
  }
  if (bytes.length > MAX_BYTES) return { sessions: [], problems: [`${file.path} is larger than ${MAX_BYTES} bytes: not read`] }
  const read = historySessions(bytes, readInputEntries(file), keyPrefix(file))
  const repo = file.cwd
  if (repo === null || !existsSync(join(repo, '.git'))) return read
  const changes = await commitChanges(repo, [...read.commits.values()].flat().map((mark) => mark.sha))
  for (const session of read.sessions) {
    session.records = withCommitChanges(session.records, read.commits.get(session.key) ?? [], changes)
  }
  return read
}

/** The sessions of a history's bytes (pure: the tests feed it damaged copies). */
export function historySessions(bytes: Buffer, inputs: InputEntry[] = [], prefix = 'aider'): HistorySessions {
  const sessions: SnapshotSession[] = []
  const problems: string[] = []
  const commits = new Map<string, CommitMark[]>()
  const runs = splitHistory(bytes.toString('utf8'))
  const starts = runs.map((session) => startTime(session.startedAt))
  const exact = promptTimes(runs, starts, inputs)
  for (const [index, session] of runs.entries()) {
    const key = `${prefix}@${session.offset}`
    if (session.startedAt !== null && starts[index] === undefined) problems.push(`offset ${session.offset}: unreadable start time "${session.startedAt}", session kept without it`)
    // A run with no header of its own (the file starts inside one, as when an older part was cut
    // off) began no later than the next run's header: that time, rather than the time of import.
    const startedAt = starts[index] ?? starts.slice(index + 1).find((time) => time !== undefined)
    const times = exact.get(index)
    const built = sessionRecords(session, key, startedAt, times)
    if (!built) continue
    // The prompts' times too: a run is imported again when the input history gives it new ones.
    const fingerprint = createHash('sha256').update(bytes.subarray(session.offset, session.end)).update(JSON.stringify([...(times ?? [])])).digest('hex')
    sessions.push({ key, fingerprint, forkedFrom: null, startedAt, records: built.records })
    if (built.commits.length > 0) commits.set(key, built.commits)
  }
  return { sessions, problems, commits }
}

/** The input history that goes with a chat history (discover.ts), when there is one; too large is none. */
function readInputEntries(file: HistoryFile): InputEntry[] {
  const path = inputHistoryOf(file.path, file.cwd)
  try {
    if (path === null || statSync(path).size > MAX_BYTES) return []
    return readInputHistory(readFileSync(path).toString('utf8'))
  } catch {
    return []
  }
}

/**
 * Each commit found in the repository replaces the hunks it covers by the files' exact contents
 * before and after it (`/undo`: after and before); one not found leaves the hunks as they are.
 */
function withCommitChanges(records: SourceRecord[], marks: CommitMark[], changes: Map<string, { path: string; before: string | null; after: string | null }[] | null>): SourceRecord[] {
  const out = [...records]
  // From the last mark back, so earlier indices stay right.
  for (const mark of [...marks].sort((a, b) => b.at - a.at || b.from - a.from)) {
    const files = changes.get(mark.sha)
    if (!files) continue
    const exact: SourceRecord[] = files.map((change) => ({
      kind: 'file-edit',
      offset: mark.offset,
      toolCallId: null,
      path: change.path,
      before: mark.undo ? change.after : change.before,
      after: mark.undo ? change.before : change.after
    }))
    // The commit's exact changes stand in for the hunks and for the edits no block described.
    const covered = out.slice(mark.from, mark.at).filter((record) => record.kind !== 'file-edit' && record.kind !== 'change-not-captured')
    out.splice(mark.from, mark.at - mark.from, ...covered, ...exact)
  }
  return out
}

/**
 * What a session key starts with, before `@<offset of its header>`: `aider` for the default file
 * at the top of its folder; `aider:<path>` for any other (named by a configuration; relative to
 * the workspace when in it), so two histories of one workspace never share a key.
 */
function keyPrefix(file: HistoryFile): string {
  const rel = file.cwd === null ? file.path : relative(file.cwd, file.path)
  if (rel === DEFAULT_HISTORY) return 'aider'
  return `aider:${rel.startsWith('..') || isAbsolute(rel) ? file.path : rel.split(sep).join('/')}`
}

/** The header's local time (Aider writes `datetime.now()` without a zone) as epoch milliseconds. */
function startTime(text: string | null): number | undefined {
  const match = text === null ? null : STARTED.exec(text)
  if (!match) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number]
  const time = new Date(year, month - 1, day, hour, minute, second).getTime()
  return Number.isFinite(time) ? time : undefined
}
