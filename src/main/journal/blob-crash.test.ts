import { spawn } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRuntime } from '../runtime/runtime'
import { tempDir } from '../testing/temp-runtime'
import { databaseOf } from '../store/raw-database'

const ROOT = resolve(__dirname, '../../..')

describe('killed while a snapshot blob is written (R2)', () => {
  it('leaves no blob under a wrong hash, and start-up sweeps the temp file', async () => {
    const dir = tempDir()
    try {
      const dataDir = join(dir.path, 'data')
      createRuntime({ dataDir, host: { binding: 'web' }, version: 'test' }).close()
      const file = join(dir.path, 'big.bin')
      const chunk = Buffer.alloc(1024 * 1024)
      for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24
      writeFileSync(file, Buffer.concat(Array.from({ length: 96 }, (_, n) => Buffer.concat([chunk, Buffer.from([n])]))))

      const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(__dirname, 'testing/blob-writer-child.ts'), dataDir, file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
      await new Promise<void>((done) => child.stdout.once('data', () => done()))
      // Kill as soon as the temp file exists: mid-write.
      const tempDirPath = join(dataDir, 'blobs', 'tmp')
      for (let i = 0; i < 400 && readdirSync(tempDirPath).length === 0; i++) await new Promise((r) => setTimeout(r, 5))
      child.kill('SIGKILL')
      await new Promise((done) => child.once('exit', done))
      expect(readdirSync(tempDirPath).length, 'a half-written temp file was left').toBe(1)

      const rt = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test' })
      try {
        expect(readdirSync(tempDirPath)).toEqual([])
        const rows = databaseOf(rt.store).prepare('SELECT hash FROM blobs').pluck().all() as string[]
        for (const hash of rows) expect(() => rt.journal.blobs.read(hash)).not.toThrow()
        expect(rows).toHaveLength(0)
      } finally {
        rt.close()
      }
    } finally {
      dir.dispose()
    }
  }, 60_000)
})
