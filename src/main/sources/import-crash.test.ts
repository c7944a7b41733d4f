import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importTestbed } from './testing/import-testbed'
import { filesRead } from './testing/files-read'
import { transcriptsBySession, writeSpotterCopies } from './testing/session-copies'
import { databaseOf } from '../store/raw-database'

const ROOT = resolve(__dirname, '../../..')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')
const { tempDir, runtime } = importTestbed('retrace-import-crash-')

describe('an import killed in the middle', () => {
  it('goes on from what it committed, and ends with what an import never killed writes and finds', async () => {
    const claude = join(tempDir(), 'claude')
    const copies = 12
    writeSpotterCopies(claude, copies)
    const dataDir = join(tempDir(), 'data')
    // 12 MB: read on the parse thread, written in batches, indexed for search at the end. The
    // pause before each file lets the test kill it with some files committed and some not.
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CLI, '--', 'import', '--all', '--data-dir', dataDir], {
      cwd: ROOT,
      env: { ...process.env, HOME: '/nonexistent', CLAUDE_CONFIG_DIR: claude, CODEX_HOME: '/nonexistent', RETRACE_IMPORT_FILE_DELAY_MS: '150' },
      stdio: 'ignore'
    })
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    const started = Date.now()
    while (filesRead(dataDir) < 2 && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 10))
    child.kill('SIGKILL')
    expect(await exited, 'killed, not finished').toBeNull()
    const committed = filesRead(dataDir)
    expect(committed).toBeGreaterThanOrEqual(2)
    expect(committed).toBeLessThan(copies)

    const resumed = runtime({ claude }, { dataDir })
    const report = await resumed.imports.importAll()
    expect(report.skipped).toEqual([])
    const clean = runtime({ claude })
    await clean.imports.importAll()
    expect(Object.keys(transcriptsBySession(clean))).toHaveLength(copies)
    expect(transcriptsBySession(resumed)).toEqual(transcriptsBySession(clean))
    // Messages the killed import wrote before its index caught up are searchable too.
    const hits = (rt: typeof clean) => (rt.store.searchIndex.search('mix', { limit: 500, offset: 0 }) ?? []).length
    expect(hits(resumed)).toBeGreaterThan(0)
    expect(hits(resumed)).toBe(hits(clean))
    expect(() => databaseOf(resumed.store).exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow()
  }, 120_000)
})
