import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, statSync, truncateSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../testing/temp-runtime'
import { FIXTURES } from '../testing/claude-home'

const ROOT = resolve(__dirname, '../../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')
const TRAVAI = join(FIXTURES, 'langgraph/travai/checkpoints.sqlite')
const SPARSE_SIZE = 3 * 1024 ** 3
/** No process of the import may write a file larger than this: a copy of the 3 GB file would be killed (EFBIG). */
const FILE_SIZE_LIMIT = 64 * 1024 * 1024

/**
 * A LangGraph `checkpoints.sqlite` grown to 3 GB of holes (issue 38): the reader copied the whole
 * file to a temp folder before reading it, 3 GB written to read 1.6 MB. `retrace import` runs in
 * a process of its own under a file size limit (prlimit), so a copy of that size fails it.
 */
describe.skipIf(process.platform !== 'linux')('a sparse 3 GB checkpoints.sqlite is read without copying it whole', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.dispose()))

  function importUnderLimit(root: string, home: string) {
    const result = spawnSync('prlimit', [`--fsize=${FILE_SIZE_LIMIT}`, process.execPath, join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', 'import', root, '--data-dir', join(home, 'data')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, HOME: home, TMPDIR: join(home, 'tmp'), XDG_STATE_HOME: join(home, 'state'), CLAUDE_CONFIG_DIR: join(home, 'none'), CODEX_HOME: join(home, 'none'), RETRACE_BACKGROUND_IMPORT: '0' }
    })
    return { code: result.status, signal: result.signal, out: result.stdout, err: result.stderr }
  }

  function folders() {
    const dir = tempDir('retrace-sparse-db-')
    dirs.push(dir)
    const root = join(dir.path, 'agent')
    const home = join(dir.path, 'home')
    for (const folder of [root, home, join(home, 'tmp')]) mkdirSync(folder, { recursive: true })
    return { root, home }
  }

  it('reads the file in place when it has no -wal: both threads imported, nothing left beside it', () => {
    const { root, home } = folders()
    const path = join(root, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    truncateSync(path, SPARSE_SIZE)
    expect(statSync(path).blocks * 512).toBeLessThan(16 * 1024 * 1024)
    const imported = importUnderLimit(root, home)
    expect(imported.signal, imported.err).toBeNull()
    expect(imported.code, imported.err).toBe(0)
    expect(imported.out).toContain('2 new sessions')
    expect(imported.out).not.toContain('cannot be read')
    expect(readdirSync(root)).toEqual(['checkpoints.sqlite'])
    expect(readdirSync(join(home, 'tmp'))).toEqual([])
  }, 150_000)

  it('copies only the pages SQLite reads, holes left holes, when a running agent has a -wal', () => {
    const { root, home } = folders()
    const path = join(root, 'checkpoints.sqlite')
    copyFileSync(TRAVAI, path)
    // The agent, still running: its newest transaction (one thread deleted) is in the -wal only.
    const agent = new Database(path)
    try {
      agent.pragma('journal_mode = WAL')
      agent.pragma('wal_autocheckpoint = 0')
      const [first] = agent.prepare('SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id').all() as { thread_id: string }[]
      agent.prepare('DELETE FROM checkpoints WHERE thread_id = ?').run(first?.thread_id)
      truncateSync(path, SPARSE_SIZE)
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0)
      const imported = importUnderLimit(root, home)
      expect(imported.signal, imported.err).toBeNull()
      expect(imported.code, imported.err).toBe(0)
      expect(imported.out).toContain('1 new session')
      expect(imported.out).not.toContain('cannot be read')
      expect(readdirSync(join(home, 'tmp'))).toEqual([])
    } finally {
      agent.close()
    }
  }, 150_000)
})
