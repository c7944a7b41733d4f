import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileSystemSyncProgram, syncFileSystem } from './file-system-sync'

describe.skipIf(process.platform !== 'linux')('flushing a file system (syncfs through sync --file-system)', () => {
  it('finds the program on Linux and flushes the file system holding a folder', async () => {
    expect(fileSystemSyncProgram()).toMatch(/\/sync$/)
    const dir = mkdtempSync(join(tmpdir(), 'retrace-syncfs-'))
    try {
      await expect(syncFileSystem(Buffer.from(dir))).resolves.toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('fails with EIO and the reason when it cannot flush', async () => {
    await expect(syncFileSystem(Buffer.from('/nonexistent/retrace-folder'))).rejects.toMatchObject({
      code: 'EIO',
      message: expect.stringMatching(/flushing the file system failed: .*No such file/) as string
    })
  })
})
