import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BlobWriterPool } from './blob-writers'

// What the threads write is tested through the rewinds that use them (rewind/threaded-replace.test.ts,
// rewind/warm.test.ts) and their flushes in file-system-sync.test.ts; here, the pool itself.

const ROOT = resolve(__dirname, '../../..')

describe('the blob writer thread pool', () => {
  it('fails the requests of a thread that dies, and starts a new thread for the next request', async () => {
    const dying = new BlobWriterPool(() => join(__dirname, 'testing', 'exit-worker.mjs'))
    const dir = mkdtempSync(join(tmpdir(), 'retrace-dying-pool-'))
    try {
      await expect(dying.sync('/bin/true', Buffer.from(dir))).rejects.toThrow(/blob writer thread stopped \(exit code 3\)/)
      await expect(dying.sync('/bin/true', Buffer.from(dir))).rejects.toThrow(/blob writer thread stopped \(exit code 3\)/)
    } finally {
      await dying.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    ['started', 'started\n'],
    ['flushed', 'flushed\n']
  ])('does not keep a process alive once idle (%s)', (mode, output) => {
    const child = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(__dirname, 'testing', 'idle-pool-child.ts'), mode], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 })
    expect(child.signal, `${child.stderr}`).toBeNull() // not killed by the timeout
    expect(child.status, child.stderr).toBe(0)
    expect(child.stdout).toBe(output)
  })
})
