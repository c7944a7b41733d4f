import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { importTestbed } from './testing/import-testbed'
import { filesRead } from './testing/files-read'
import { transcriptsBySession, writeSpotterCopies } from './testing/session-copies'

const ROOT = resolve(__dirname, '../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')
const { tempDir, runtime } = importTestbed('retrace-import-processes-')

/** `retrace import --all` in a process of its own: its exit code and what it wrote to stderr. */
function importProcess(claude: string, dataDir: string): Promise<{ code: number | null; stderr: string }> {
  // The pause before each file keeps the imports going while the test holds the lock.
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', 'import', '--all', '--json', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, HOME: '/nonexistent', CLAUDE_CONFIG_DIR: claude, CODEX_HOME: '/nonexistent', RETRACE_IMPORT_FILE_DELAY_MS: '300' },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
  return new Promise((done) => child.once('exit', (code) => done({ code, stderr })))
}

describe('two `retrace import` processes on one data folder at once (R32)', () => {
  it('both succeed, each waiting while the other (or anyone) writes, and import each line once', async () => {
    const claude = join(tempDir(), 'claude')
    writeSpotterCopies(claude, 12)
    const dataDir = join(tempDir(), 'data')
    const imports = [importProcess(claude, dataDir), importProcess(claude, dataDir)]

    // Once they are writing, a third connection holds the write lock for a while, as a long
    // commit of one of them (or the window's rewind) does: the others wait for it, then go on.
    const started = Date.now()
    while (filesRead(dataDir) < 2 && Date.now() - started < 60_000) await sleep(10)
    const holder = new Database(join(dataDir, 'retrace.db'))
    holder.exec('BEGIN IMMEDIATE')
    await sleep(1500)
    holder.exec('COMMIT')
    holder.close()

    const [one, two] = await Promise.all(imports)
    expect(one, one?.stderr).toMatchObject({ code: 0 })
    expect(two, two?.stderr).toMatchObject({ code: 0 })
    const clean = runtime({ claude })
    await clean.imports.importAll()
    expect(Object.keys(transcriptsBySession(clean))).toHaveLength(12)
    expect(transcriptsBySession(runtime({ claude }, { dataDir }))).toEqual(transcriptsBySession(clean))
  }, 180_000)
})
