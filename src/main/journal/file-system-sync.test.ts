import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BlobWriterPool } from './blob-writers'
import { fileSystemSyncProgram, syncFileSystem } from './file-system-sync'
import { helperShells } from './testing/helper-shells'
import { blobWriterWorkerPath } from './worker-path'

describe.skipIf(process.platform !== 'linux')('flushing a file system (syncfs through sync --file-system)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-syncfs-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('finds the program on Linux and flushes the file system holding a folder', async () => {
    expect(fileSystemSyncProgram()).toMatch(/\/sync$/)
    await expect(syncFileSystem(Buffer.from(dir))).resolves.toBeUndefined()
  })

  it('fails with EIO and the reason when it cannot flush', async () => {
    await expect(syncFileSystem(Buffer.from('/nonexistent/retrace-folder'))).rejects.toMatchObject({
      code: 'EIO',
      message: expect.stringMatching(/flushing the file system failed: .*No such file/) as string
    })
  })

  describe('through the flusher thread and its helper process', () => {
    const pool = new BlobWriterPool(() => blobWriterWorkerPath())
    afterAll(() => pool.close())

    it('flushes again and again through one helper process, not a process per flush', async () => {
      for (let i = 0; i < 5; i++) await expect(syncFileSystem(Buffer.from(dir), pool)).resolves.toBeUndefined()
      expect(helperShells()).toHaveLength(1)
    })

    it('passes a folder name that is not UTF-8, or holds a line break, exactly', async () => {
      const latin1 = Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9])])
      mkdirSync(latin1)
      await expect(syncFileSystem(latin1, pool)).resolves.toBeUndefined()
      const lineBreak = join(dir, 'two\nlines')
      mkdirSync(lineBreak)
      await expect(syncFileSystem(Buffer.from(lineBreak), pool)).resolves.toBeUndefined()
      await expect(syncFileSystem(Buffer.from(`${dir}/caf\u00e9`), pool)).rejects.toMatchObject({ code: 'EIO' }) // the UTF-8 spelling names no folder
    })

    it('fails with EIO and the program’s complaint, and flushes again afterwards', async () => {
      await expect(syncFileSystem(Buffer.from(join(dir, 'missing')), pool)).rejects.toMatchObject({
        code: 'EIO',
        message: expect.stringMatching(/^EIO: flushing the file system failed: .*No such file/) as string
      })
      await expect(pool.sync('/bin/false', Buffer.from(dir))).rejects.toMatchObject({ code: 'EIO', message: expect.stringMatching(/flushing the file system failed/) as string })
      await expect(syncFileSystem(Buffer.from(dir), pool)).resolves.toBeUndefined()
    })

    it('starts the helper when warmed with the program, before any flush is asked', async () => {
      const warmed = new BlobWriterPool(() => blobWriterWorkerPath())
      try {
        const before = helperShells().length
        warmed.warm(1, fileSystemSyncProgram() as string)
        await expect.poll(() => helperShells().length, { timeout: 10_000 }).toBe(before + 1)
      } finally {
        await warmed.close()
      }
    })

    it('fails the flush in flight when the helper dies, and starts a new helper for the next', async () => {
      const killer = join(dir, 'kill-parent')
      writeFileSync(killer, '#!/bin/sh\nkill -KILL $PPID\nsleep 5\n')
      chmodSync(killer, 0o755)
      await expect(pool.sync(killer, Buffer.from(dir))).rejects.toMatchObject({ code: 'EIO', message: expect.stringMatching(/flush helper stopped \(SIGKILL\)/) as string })
      await expect(syncFileSystem(Buffer.from(dir), pool)).resolves.toBeUndefined()
    })
  })
})
