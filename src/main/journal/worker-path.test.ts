import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { blobWriterWorkerPath, deflateWorkerPath, scanWorkerPath } from './worker-path'

describe('worker script paths', () => {
  it('prefer a built <name>.js, here or one folder up, over the source', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-worker-path-'))
    try {
      const chunks = join(dir, 'chunks')
      expect(scanWorkerPath(chunks)).toBe(join(chunks, 'scan', 'scan-worker.mts'))
      writeFileSync(join(dir, 'scan-worker.js'), '')
      expect(scanWorkerPath(chunks)).toBe(join(dir, 'scan-worker.js'))
      expect(scanWorkerPath(dir)).toBe(join(dir, 'scan-worker.js'))
      writeFileSync(join(dir, 'deflate-worker.js'), '')
      expect(deflateWorkerPath(chunks)).toBe(join(dir, 'deflate-worker.js'))
      expect(blobWriterWorkerPath(chunks)).toBe(join(chunks, 'blob-writer-worker.mts'))
      mkdirSync(chunks)
      writeFileSync(join(chunks, 'blob-writer-worker.js'), '')
      expect(blobWriterWorkerPath(chunks)).toBe(join(chunks, 'blob-writer-worker.js'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('find the sources beside this module when nothing is built', () => {
    expect(scanWorkerPath()).toBe(join(__dirname, 'scan', 'scan-worker.mts'))
    expect(blobWriterWorkerPath()).toBe(join(__dirname, 'blob-writer-worker.mts'))
    expect(deflateWorkerPath()).toBe(join(__dirname, 'scan', 'deflate-worker.mts'))
    for (const path of [scanWorkerPath(), blobWriterWorkerPath(), deflateWorkerPath()]) expect(existsSync(path)).toBe(true)
  })
})
