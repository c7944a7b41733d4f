import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempRuntime } from '../testing/temp-runtime'
import { BlobStore } from './blob-store'
import { diffVersions, isText, MAX_DIFF_BYTES } from './file-diff'
import type { FileVersion } from '../store/repositories/journal'

describe('file diffs', () => {
  let rt: ReturnType<typeof tempRuntime>
  let blobs: BlobStore
  const version = (content: Buffer | string): FileVersion => {
    const { hash, size } = blobs.putBuffer(Buffer.from(content))
    return { kind: 'file', hash, size, mode: 0o644 }
  }
  beforeEach(() => {
    rt = tempRuntime()
    blobs = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs'))
  })
  afterEach(() => rt.dispose())

  it('gives a unified diff with +/- counts for text', async () => {
    const diff = await diffVersions(blobs, version('one\ntwo\nthree\n'), version('one\n2\nthree\nfour\n'))
    expect(diff).toMatchObject({ binary: false, tooLarge: false, tooManyChanges: false, added: 2, removed: 1 })
    expect(diff.patch).toBe('@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four')
  })

  it('treats creation and deletion as diffs from and to nothing', async () => {
    expect(await diffVersions(blobs, null, version('a\nb\n'))).toMatchObject({ added: 2, removed: 0, before: null })
    expect(await diffVersions(blobs, version('a\n'), null)).toMatchObject({ added: 0, removed: 1, after: null })
  })

  it('starts a created file\'s hunk at -0,0 and a deleted file\'s at +0,0, as diff and git do', async () => {
    expect((await diffVersions(blobs, null, version('a\nb\n'))).patch).toBe('@@ -0,0 +1,2 @@\n+a\n+b')
    expect((await diffVersions(blobs, version('a\n'), null)).patch).toBe('@@ -1,1 +0,0 @@\n-a')
  })

  it('reports binary files by size and hash only, and guards very large files', async () => {
    const binary = await diffVersions(blobs, version(Buffer.from([0x89, 0x50, 0, 1, 2])), version(Buffer.from([0x89, 0, 3])))
    expect(binary).toMatchObject({ binary: true, patch: '', before: { size: 5 }, after: { size: 3 } })
    const huge = await diffVersions(blobs, version('x'), version('y'.repeat(MAX_DIFF_BYTES + 1)))
    expect(huge).toMatchObject({ tooLarge: true, patch: '' })
    expect(isText(Buffer.from([0xc3, 0x28]))).toBe(false)
    expect(isText(Buffer.from('ünïcödé'))).toBe(true)
  })
})
