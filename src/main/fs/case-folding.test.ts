import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { foldsCase } from './case-folding'

describe('whether a disk ignores case (R14)', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

  it('probes the folder itself: this machine\'s disk tells case apart, by a name inside, the folder\'s own name, or the nearest existing parent', () => {
    const dir = tempDir('retrace-case-')
    cleanups.push(() => dir.dispose())
    const withFile = join(dir.path, 'with-file')
    mkdirSync(withFile)
    writeFileSync(join(withFile, 'Readme.md'), '')
    const empty = join(dir.path, 'Empty')
    mkdirSync(empty)
    const digits = join(dir.path, '123')
    mkdirSync(digits)
    writeFileSync(join(digits, '42'), '')
    // No case-insensitive file system can be mounted here (no casefold in this kernel's tmpfs or ext4): macOS, Windows and FAT disks answer true.
    for (const folder of [withFile, empty, join(empty, 'not/made/yet')]) expect(foldsCase(Buffer.from(folder)), folder).toBe(false)
    expect(foldsCase(Buffer.from(digits))).toBe(process.platform === 'darwin' || process.platform === 'win32') // no letter anywhere: the platform's usual disk
  })
})
