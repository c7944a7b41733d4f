import { spawn, spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { join, resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { ParseThread } from './parse-thread/parse-thread'
import { importTestbed } from './testing/import-testbed'
import { copyId, manyValuesLine, writeSessionsWithLargeLine } from './testing/large-line-sessions'

const ROOT = resolve(__dirname, '../../..')
const VITE_NODE = join(ROOT, 'node_modules/vite-node/dist/cli.mjs')
const CLI = join(ROOT, 'src/main/testing/cli-process.ts')
const { tempDir, runtime } = importTestbed('retrace-large-line-')

/** What the store in `dataDir` holds, read as another process would (null before its schema exists). */
function stored(dataDir: string): { read: Record<string, number>; sessions: string[] } | null {
  const path = join(dataDir, 'retrace.db')
  if (!existsSync(path)) return null
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true })
    try {
      const rows = db.prepare('SELECT path, offset FROM import_files').all() as { path: string; offset: number }[]
      const sessions = (db.prepare('SELECT source_session_id AS id FROM sessions ORDER BY 1').all() as { id: string }[]).map((row) => row.id)
      return { read: Object.fromEntries(rows.map((row) => [row.path, row.offset])), sessions }
    } finally {
      db.close()
    }
  } catch {
    return null
  }
}

const childEnv = (claude: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...process.env, HOME: '/nonexistent', CLAUDE_CONFIG_DIR: claude, CODEX_HOME: '/nonexistent', ...more })

describe('a history line of tens of megabytes', () => {
  it('`retrace import --all` imports it and every other session, and exits 0', () => {
    const claude = join(tempDir(), 'claude')
    // Three sessions, the middle one with a line of 30 MB of small values.
    const paths = writeSessionsWithLargeLine(claude, 3, { copy: 1, line: (id) => manyValuesLine(id, 30) })
    const dataDir = join(tempDir(), 'data')
    const child = spawnSync(process.execPath, [VITE_NODE, CLI, '--', 'import', '--all', '--json', '--data-dir', dataDir], { cwd: ROOT, env: childEnv(claude), encoding: 'utf8', timeout: 240_000, maxBuffer: 64 * 1024 * 1024 })
    expect(child.status, `exit ${child.status} ${child.signal ?? ''}: ${child.stderr.slice(-2000)}`).toBe(0)
    const report = JSON.parse(child.stdout) as { files: number; sessions: number; skipped: unknown[] }
    expect(report).toMatchObject({ files: 3, sessions: 3, skipped: [] })
    expect(stored(dataDir)).toEqual({ sessions: [copyId(0), copyId(1), copyId(2)], read: readToTheEnd(paths) })
  }, 300_000)

  it('`retrace serve` stays up through its background import of it, and answers after', async () => {
    const claude = join(tempDir(), 'claude')
    const paths = writeSessionsWithLargeLine(claude, 3, { copy: 1, line: (id) => manyValuesLine(id, 30) })
    const dataDir = join(tempDir(), 'data')
    const child = spawn(process.execPath, [VITE_NODE, CLI, '--', 'serve', '--port', '0', '--data-dir', dataDir], { cwd: ROOT, env: childEnv(claude, { RETRACE_BACKGROUND_IMPORT: '1', RETRACE_BACKGROUND_IMPORT_INTERVAL_MS: '200' }), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
    // Read through a function: the callbacks set it, which the type checker cannot see.
    const state = { exit: null as string | null }
    const exited = () => state.exit
    child.on('exit', (code, signal) => (state.exit = `exited (code ${code}, signal ${signal}): ${stderr}`))
    try {
      const url = await new Promise<URL>((resolveUrl, reject) => {
        let stdout = ''
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString()
          const match = /serving (http:\/\/\S+)/.exec(stdout)
          if (match?.[1]) resolveUrl(new URL(match[1]))
        })
        child.on('exit', () => reject(new Error(`serve ${exited() ?? ''}`)))
      })
      // Its background import's first round: every session in, the large line too.
      for (;;) {
        const exit = exited()
        if (exit) throw new Error(`serve ${exit}`)
        const now = stored(dataDir)
        if (now?.sessions.length === 3 && isDeepStrictEqual(now.read, readToTheEnd(paths))) break
        await new Promise((wait) => setTimeout(wait, 100))
      }
      // A few more rounds (200 ms apart), then it still answers.
      await new Promise((wait) => setTimeout(wait, 1500))
      expect(exited()).toBeNull()
      const listing = (await rpc(url, 'workspaces.listAll', {})) as { items: { path: string }[] }
      expect(listing.items.length).toBeGreaterThan(0)
      expect(exited()).toBeNull()
    } finally {
      if (!exited()) {
        const exited = new Promise((done) => child.once('exit', done))
        child.kill('SIGINT')
        await exited
      }
    }
  }, 300_000)
})

/** Each file's size by path: what the store's offsets are once every line of them was read. */
function readToTheEnd(paths: string[]): Record<string, number> {
  return Object.fromEntries(paths.map((path) => [path, statSync(path).size]))
}

function rpc(url: URL, method: string, input: object): Promise<unknown> {
  const token = url.searchParams.get('token') ?? ''
  return new Promise((resolveReply, reject) => {
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: `/api/rpc/${method}`, headers: { Host: url.host, Origin: url.origin, 'X-Retrace-Token': token, 'Content-Type': 'application/json' } }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => {
        const reply = JSON.parse(body) as { ok: boolean; data?: unknown; error?: { message: string } }
        if (reply.ok) resolveReply(reply.data)
        else reject(new Error(reply.error?.message))
      })
    })
    req.on('error', reject)
    req.end(JSON.stringify(input))
  })
}

describe('a file whose parse thread stopped', () => {
  it('costs that file only, and is not read again until it changes, even by the next process', async () => {
    const claude = join(tempDir(), 'claude')
    const paths = writeSessionsWithLargeLine(claude, 3, { copy: 1, line: (id) => manyValuesLine(id, 8) })
    const dataDir = join(tempDir(), 'data')
    // The thread started for the large line exits as it starts (as one out of memory stops).
    const faulty = { RETRACE_IMPORT_LARGE_LINE_THREAD_FAULT: 'exit' }
    const largeLineThreads = ParseThread.counts.largeLine
    const first = runtime({ claude }, { dataDir, env: faulty })
    const report = await first.imports.importAll()
    expect(report.sessions, 'every session, the stopped file\'s lines before its large line too').toBe(3)
    expect(report.skipped).toEqual([{ file: paths[1], offset: expect.any(Number) as number, reason: expect.stringMatching(/^file not imported: Retrace's parse thread stopped while reading .*af01\.jsonl \(the import's parse thread stopped \(exit code 70\), at or after byte \d+\): it is not read again until it changes$/) as string }])
    expect(ParseThread.counts.largeLine - largeLineThreads).toBe(1)

    // The next round, and the next process on the same data folder: not read again, and said so.
    for (const rt of [first, runtime({ claude }, { dataDir, env: faulty })]) {
      const again = await rt.imports.importAll()
      expect(again.skipped).toEqual([{ file: paths[1], offset: expect.any(Number) as number, reason: expect.stringMatching(/^not read again: Retrace's parse thread stopped while reading it on \d{4}-\d\d-\d\dT.*; it is read again once it changes$/) as string }])
      expect(ParseThread.counts.largeLine - largeLineThreads, 'no thread started for it again').toBe(1)
    }

    // Changed (an agent wrote on): read again, from where its import stopped.
    appendFileSync(paths[1] ?? '', `${JSON.stringify({ type: 'summary', summary: 'later' })}\n`)
    const changed = await runtime({ claude }, { dataDir }).imports.importAll()
    expect(changed.skipped).toEqual([])
    expect(ParseThread.counts.largeLine - largeLineThreads).toBe(2)
    expect(stored(dataDir)?.read).toEqual(readToTheEnd(paths))
  }, 120_000)
})
