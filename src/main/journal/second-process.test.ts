import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DATABASE_FILE } from '../store/store'
import { tempRuntime } from '../testing/temp-runtime'
import { databaseOf } from '../store/raw-database'

describe('a second process on the same store (R18)', () => {
  let rt: ReturnType<typeof tempRuntime>
  afterEach(() => rt.dispose())

  it('waits for the other writer (busy timeout) instead of failing or corrupting anything', async () => {
    rt = tempRuntime()
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    // Another process takes the write lock and holds it for 700 ms.
    const holder = spawn(process.execPath, ['-e', `
      const Database = require('better-sqlite3')
      const db = new Database(process.argv[1])
      db.pragma('busy_timeout = 5000')
      db.exec('BEGIN IMMEDIATE')
      db.prepare("INSERT INTO workspaces (path, name, created_at) VALUES ('/other', 'other', 0)").run()
      process.stdout.write('locked\\n')
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700)
      db.exec('COMMIT')
      db.close()
    `, join(rt.store.dataDir, DATABASE_FILE)], { cwd: join(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()))
    const started = Date.now()
    const writer = rt.recorder.startSession({ workspaceId, title: 'written while locked' })
    const waited = Date.now() - started
    await new Promise((resolve) => holder.once('exit', resolve))
    expect(waited).toBeGreaterThan(200)
    expect(rt.store.sessions.require(writer.id).title).toBe('written while locked')
    expect(rt.store.workspaces.getByPath('/other')).toBeDefined()
    expect(databaseOf(rt.store).pragma('integrity_check', { simple: true })).toBe('ok')
  })
})
