import { execFileSync, fork } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { readCheckpointDb } from '../langgraph/checkpoint-db'
import { FIXTURES } from '../testing/claude-home'
import { readForeignDb } from './read-foreign-db'
import { endlessViewDb, generatedColumnDb, slowDb, triggerDb, virtualTableDb, wrongShapeDb } from './testing/hostile-databases'

const TRAVAI = join(FIXTURES, 'langgraph/travai/checkpoints.sqlite')
const CHECKPOINTS = { checkpoints: { columns: ['thread_id', 'checkpoint_id', 'checkpoint'], required: ['thread_id'], orderBy: ['thread_id', 'checkpoint_id'] } }

describe('reading a foreign SQLite database', () => {
  let dir = ''
  /** The readers' temporary copies go here (TMPDIR), so a copy left behind would show. */
  let temp = ''
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-foreign-db-'))
    temp = join(dir, 'tmp')
    mkdirSync(temp)
    vi.stubEnv('TMPDIR', temp)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    ['a view over a query that never ends', endlessViewDb, /was not read \(refused\): its "checkpoints" is a view, not a table/],
    ['an FTS5 virtual table', virtualTableDb, /was not read \(refused\): its "checkpoints" is a virtual table/],
    ['a table with a trigger', triggerDb, /was not read \(refused\): its table "checkpoints" has a trigger \("on_checkpoint"\)/],
    ['a column computed on read', generatedColumnDb, /was not read \(refused\): column "checkpoint" of its table "checkpoints" is generated/]
  ])('refuses %s before any query, naming the file and the object', async (_name, make, message) => {
    const path = make(join(dir, 'checkpoints.sqlite'))
    const started = Date.now()
    const db = await readCheckpointDb(path)
    expect(db).toEqual({ threads: [], problems: [expect.stringMatching(message) as string] })
    expect(db.problems[0]?.startsWith(`${path} was not read`)).toBe(true)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(readdirSync(dir).sort()).toEqual(['checkpoints.sqlite', 'tmp'])
    expect(readdirSync(temp)).toEqual([])
  })

  it('reports a table of another shape as an unknown schema, reading none of its rows', async () => {
    const path = wrongShapeDb(join(dir, 'checkpoints.sqlite'))
    expect(await readCheckpointDb(path)).toEqual({ threads: [], problems: ['its checkpoints table lacks thread_id, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata: an unknown schema'] })
  })

  it.skipIf(process.platform === 'win32')('refuses a -wal that is a pipe instead of waiting on it forever', async () => {
    const path = join(dir, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    execFileSync('mkfifo', [`${path}-wal`])
    const read = await readForeignDb(path, CHECKPOINTS, { timeLimitMs: 20_000 })
    expect(read).toMatchObject({ ok: false, kind: 'refused', problem: expect.stringContaining(`${path}-wal is not a regular file`) as string })
    expect(readdirSync(temp)).toEqual([])
  })

  it('stops a read at its time limit, says the file took too long and was skipped, and stays responsive meanwhile', async () => {
    const path = slowDb(join(dir, 'checkpoints.sqlite'))
    let longestPause = 0
    let last = Date.now()
    const ticker = setInterval(() => {
      longestPause = Math.max(longestPause, Date.now() - last)
      last = Date.now()
    }, 10)
    const started = Date.now()
    const read = await readForeignDb(path, CHECKPOINTS, { timeLimitMs: 500 })
    clearInterval(ticker)
    expect(read).toMatchObject({ ok: false, kind: 'time-limit' })
    expect(read.ok ? '' : read.problem).toBe(
      `${path} took longer than 500 ms to read and was skipped: nothing of it was imported. If it is a very large database, set RETRACE_FOREIGN_DB_TIME_LIMIT_MS to a longer limit (in milliseconds).`
    )
    // Read whole, this database takes several seconds: the reader was stopped, not waited for.
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(longestPause).toBeLessThan(250)
    expect(readdirSync(temp)).toEqual([])
  })

  it('a reader whose caller is gone ends itself at its deadline instead of spinning on', async () => {
    const path = slowDb(join(dir, 'checkpoints.sqlite'))
    // The reader as readForeignDb starts it, but with nobody to kill it at the time limit.
    const reader = fork(join(__dirname, 'foreign-db-reader.mts'), [], { execArgv: [], serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] })
    const started = Date.now()
    const ended = new Promise<NodeJS.Signals | null>((done) => reader.once('exit', (_code, signal) => done(signal)))
    reader.send({ path, copyDir: temp, tables: CHECKPOINTS, deadlineMs: 500 })
    expect(await ended).toBe('SIGKILL')
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it('reads a genuine database (and its WAL) into plain rows, writing nothing beside it', async () => {
    const path = join(dir, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    const read = await readForeignDb(path, { ...CHECKPOINTS, missing: { columns: ['x'] } })
    if (!read.ok) throw new Error(read.problem)
    const table = read.tables.checkpoints
    expect(table?.state === 'read' && table.rows.length).toBe(54)
    expect(table?.state === 'read' && Buffer.isBuffer(table.rows[0]?.checkpoint)).toBe(true)
    expect(read.tables.missing).toEqual({ state: 'absent' })
    expect(readdirSync(dir).sort()).toEqual(['checkpoints.sqlite', 'tmp'])
    expect(readdirSync(temp)).toEqual([])
  })
})
