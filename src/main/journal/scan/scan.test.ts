import { chmodSync, mkdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sha256 } from '../blob-store'
import { displayPath } from '../../fs/paths'
import { diffScans } from './diff'
import { RACY_CTIME_NS } from '../../store/repositories/file-states'
import { key, scanFixture, settle, type ScanFixture } from './testing/scan-fixture'
import type { ScanProgress } from './types'

let fx: ScanFixture
beforeEach(() => {
  fx = scanFixture()
})
afterEach(() => fx.dispose())

const summary = (changes: ReturnType<typeof diffScans>): string[] =>
  changes.map((c) => `${c.op} ${c.fromPath ? `${displayPath(c.fromPath)} -> ` : ''}${displayPath(c.path)}`)

describe('scanWorkspace', () => {
  it('records every file with its hash, stores the content and the stat cache', async () => {
    fx.write('a.txt', 'alpha')
    fx.write('src/deep/b.ts', 'export const b = 1\n')
    fx.write('empty', '')
    const result = await fx.scan()

    expect([...result.files.keys()].map((k) => displayPath(k)).sort()).toEqual(['a.txt', 'empty', 'src/deep/b.ts'])
    const a = result.files.get(key('a.txt'))
    expect(a).toMatchObject({ kind: 'file', size: 5, hash: sha256(Buffer.from('alpha')) })
    expect(a?.mode).toBe(statSync(join(fx.root, 'a.txt')).mode & 0o7777)
    expect(fx.blobs.read(sha256(Buffer.from('export const b = 1\n'))).toString()).toBe('export const b = 1\n')
    expect(result.truncated).toBe(false)
    expect(result.skipped).toEqual([])
    expect(result.stats).toMatchObject({ filesSeen: 3, filesHashed: 3, reusedFromCache: 0, bytesHashed: 5 + 19 })
    // The stat cache now holds exactly this scan.
    const states = fx.rt.store.fileStates.load(fx.workspaceId)
    expect([...states.keys()].sort()).toEqual([...result.files.keys()].sort())
    expect(states.get(key('a.txt'))?.hash).toBe(a?.hash)
    expect(states.get(key('a.txt'))?.ino).toBe(a?.ino)
  })

  it('catches create, modify, delete, rename and mode changes made by shell-like fs calls (R8, R9)', async () => {
    fx.write('keep.txt')
    fx.write('edit.txt', 'one')
    fx.write('gone.txt')
    fx.write('old/name.txt', 'moved content')
    fx.write('dir/inner.txt')
    fx.write('becomes-dir', 'a file for now')
    fx.write('run.sh', '#!/bin/sh\n')
    const before = await fx.scan()

    writeFileSync(join(fx.root, 'edit.txt'), 'two!')
    rmSync(join(fx.root, 'gone.txt')) // rm
    mkdirSync(join(fx.root, 'new'))
    renameSync(join(fx.root, 'old/name.txt'), join(fx.root, 'new/name.txt')) // mv
    rmSync(join(fx.root, 'dir'), { recursive: true }) // rm -r
    rmSync(join(fx.root, 'becomes-dir'))
    fx.write('becomes-dir/child.txt', 'now a folder')
    chmodSync(join(fx.root, 'run.sh'), 0o755)
    fx.write('fresh.txt', 'created')
    const after = await fx.scan()

    expect(summary(diffScans(before.files, after.files))).toEqual([
      'delete becomes-dir',
      'create becomes-dir/child.txt',
      'delete dir/inner.txt',
      'modify edit.txt',
      'create fresh.txt',
      'delete gone.txt',
      'rename old/name.txt -> new/name.txt',
      'mode run.sh'
    ])
    expect(after.files.get(key('run.sh'))?.mode).toBe(0o755)
    // The stat cache follows the workspace: deleted paths are gone from it.
    expect(fx.rows().map((r) => r.path.toString())).toEqual([...after.files.values()].map((f) => f.path.toString()).sort())
  })

  it('re-reads a same-size edit with a restored mtime, and reuses untouched files without reading them', async () => {
    for (let i = 0; i < 5; i++) fx.write(`f${i}.txt`, `content ${i}`)
    const target = join(fx.root, 'f2.txt')
    utimesSync(target, 1_700_000_000, 1_700_000_000) // whole seconds: restorable exactly
    await settle()
    const first = await fx.scan()
    const mtimeBefore = statSync(target, { bigint: true }).mtimeNs

    writeFileSync(target, 'CONTENT 2') // same size
    utimesSync(target, 1_700_000_000, 1_700_000_000)
    const edited = statSync(target, { bigint: true })
    expect(edited.mtimeNs).toBe(mtimeBefore) // the precondition: size and mtime look unchanged
    expect(Number(edited.size)).toBe(first.files.get(key('f2.txt'))?.size)
    await settle()
    const second = await fx.scan()

    expect(second.stats).toMatchObject({ filesHashed: 1, reusedFromCache: 4, bytesHashed: 9 })
    expect(summary(diffScans(first.files, second.files))).toEqual(['modify f2.txt'])
    expect(second.files.get(key('f2.txt'))?.hash).toBe(sha256(Buffer.from('CONTENT 2')))
  })

  it('does not trust the stat of a file read right after it changed (racily clean)', async () => {
    fx.write('hot.txt', 'just written')
    const first = await fx.scan({ racyWindowMs: 60_000 }) // everything written in the last minute counts as racy
    expect(first.stats.filesHashed).toBe(1)
    expect(fx.rows()[0]?.ctime_ns).toBe(RACY_CTIME_NS)
    // The next scan must read it again, even though nothing changed.
    await settle()
    const second = await fx.scan()
    expect(second.stats).toMatchObject({ filesHashed: 1, reusedFromCache: 0 })
    // Once settled, its real ctime is stored and the cache is used.
    expect(fx.rows()[0]?.ctime_ns).toBe(second.files.get(key('hot.txt'))?.ctimeNs)
    const third = await fx.scan()
    expect(third.stats).toMatchObject({ filesHashed: 0, reusedFromCache: 1 })
    expect(third.files.get(key('hot.txt'))?.hash).toBe(first.files.get(key('hot.txt'))?.hash)
  })

  it('reports progress and phases', async () => {
    for (let i = 0; i < 20; i++) fx.write(`p/${i}.txt`, 'x'.repeat(100))
    const seen: ScanProgress[] = []
    await fx.scan({ onProgress: (p) => seen.push(p) })
    const phases = seen.map((p) => p.phase)
    expect(phases.slice(-2)).toEqual(['saving', 'done'])
    expect(seen.at(-1)).toMatchObject({ filesSeen: 20, filesHashed: 20, bytesHashed: 2000 })
  })

  it('refuses a root that is not a readable folder', async () => {
    const file = fx.write('plain.txt')
    await expect(fx.scan({ root: file })).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY' })
    await expect(fx.scan({ root: join(fx.root, 'missing') })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' })
  })
})
