import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sha256 } from '../blob-store'
import { displayPath, keyOf } from '../../fs/paths'
import { TEMP_PREFIX } from '../shared-constants.mts'
import { key, scanFixture, settle, type ScanFixture } from './testing/scan-fixture'

let fx: ScanFixture
beforeEach(() => {
  fx = scanFixture()
})
afterEach(() => fx.dispose())

const names = (files: Map<string, unknown>): string[] => [...files.keys()].map((k) => Buffer.from(k, 'latin1').toString('utf8')).sort()

function mkfifo(path: string): boolean {
  try {
    execFileSync('mkfifo', [path])
    return true
  } catch {
    return false
  }
}

describe('what the scan leaves out', () => {
  it('never enters a .git folder, nested or in any case, nor reads a .git file (R19)', async () => {
    fx.write('README.md')
    fx.write('.git/HEAD', 'ref: refs/heads/main\n')
    fx.write('.git/objects/ab/cdef', 'blob')
    fx.write('sub/module/.git/config', '[core]')
    fx.write('sub/module/code.c')
    fx.write('vendor/.GIT/index', 'x')
    fx.write('vendor/lib.js')
    fx.write('worktree/.git', 'gitdir: ../.git/worktrees/w\n') // a worktree's or submodule's .git file
    // A FIFO inside .git: a scan that listed that folder would report it as skipped (or hang reading it).
    const fifo = mkfifo(join(fx.root, '.git', 'pipe'))
    const result = await fx.scan()

    expect(fifo).toBe(true)
    expect(names(result.files)).toEqual(['README.md', 'sub/module/code.c', 'vendor/lib.js'])
    expect(result.skipped).toEqual([]) // the FIFO was never even listed
    expect(result.stats.filesSeen).toBe(3)
  })

  it("leaves out a rewind's temp and set-aside files, which are Retrace's and never the user's", async () => {
    fx.write('a.txt')
    fx.write(`${TEMP_PREFIX}0123456789ab`, 'a temp a rewind is about to rename') // the prefix the rewind names them with
    fx.write(`src/${TEMP_PREFIX}0123456789ab-replaced`, 'a replaced file, not removed yet')
    fx.write('src/retrace-tmp-lookalike.txt') // not the prefix: the user's
    fx.write(`${TEMP_PREFIX}folder/b.txt`) // a folder is never one of Retrace's
    const result = await fx.scan()
    expect(names(result.files)).toEqual([`${TEMP_PREFIX}folder/b.txt`, 'a.txt', 'src/retrace-tmp-lookalike.txt'])
  })

  it.skipIf(process.platform === 'win32')('passes over a .git/info/exclude that is a FIFO or a link to /dev/zero, instead of hanging or dying on it', async () => {
    fx.write('a.txt')
    mkdirSync(join(fx.root, '.git', 'info'), { recursive: true })
    expect(mkfifo(join(fx.root, '.git', 'info', 'exclude'))).toBe(true)
    expect(names((await fx.scan()).files)).toEqual(['a.txt'])
    rmSync(join(fx.root, '.git', 'info', 'exclude'))
    symlinkSync('/dev/zero', join(fx.root, '.git', 'info', 'exclude'))
    expect(names((await fx.scan()).files)).toEqual(['a.txt'])
  }, 20_000)

  it('honours root and nested .gitignore files, negations and .git/info/exclude', async () => {
    fx.write('.gitignore', '*.log\n!keep.log\nbuild/\n/rootonly.txt\n')
    fx.write('.git/info/exclude', 'secret.txt\n')
    for (const f of ['a.log', 'keep.log', 'build/out.js', 'build/.gitignore', 'src/build/gen.js', 'rootonly.txt', 'src/rootonly.txt', 'secret.txt', 'lib/build', 'x.tmp']) fx.write(f)
    fx.write('src/.gitignore', '*.tmp\n!important.log\n')
    for (const f of ['src/x.tmp', 'src/important.log', 'src/other.log', 'src/deeper/y.tmp']) fx.write(f)
    fx.write('build/.gitignore', '!out.js\n') // inside an ignored folder: never read, as in git

    const result = await fx.scan()
    expect(names(result.files)).toEqual([
      '.gitignore',
      'keep.log', // re-included by the negation
      'lib/build', // `build/` matches folders only
      'src/.gitignore',
      'src/important.log', // the nested file re-includes what the root excluded
      'src/rootonly.txt', // `/rootonly.txt` is anchored to the root
      'x.tmp' // the nested rule does not apply above its folder
    ])
  })

  it('keeps non-UTF-8 names byte-exact through the scan, the blob store and SQLite (R15)', async () => {
    const cafe = Buffer.from([0x63, 0x61, 0x66, 0xe9]) // "café" in Latin-1: not UTF-8
    const dir = Buffer.from([0x64, 0xff, 0xfe])
    const root = Buffer.from(fx.root)
    writeFileSync(Buffer.concat([root, Buffer.from('/'), cafe]), 'latin-1 name')
    mkdirSync(Buffer.concat([root, Buffer.from('/'), dir]))
    const nested = Buffer.concat([dir, Buffer.from('/'), cafe, Buffer.from('.txt')])
    writeFileSync(Buffer.concat([root, Buffer.from('/'), nested]), 'nested')
    fx.write('.gitignore', '*.txt\n') // cannot be matched against a non-UTF-8 path: recorded, not lost

    await settle()
    const result = await fx.scan()
    const top = result.files.get(keyOf(cafe))
    expect(top?.path.equals(cafe)).toBe(true)
    expect(fx.blobs.read(top?.hash ?? '').toString()).toBe('latin-1 name')
    expect(result.files.get(keyOf(nested))?.path.equals(nested)).toBe(true)
    expect(displayPath(nested)).toContain('\uFFFD')
    // Stored as BLOB and read back as the same bytes: the next scan matches them in its cache.
    expect(fx.rows().some((r) => r.path.equals(nested))).toBe(true)
    expect(fx.rt.store.fileStates.load(fx.workspaceId).get(keyOf(nested))?.path.equals(nested)).toBe(true)
    const again = await fx.scan()
    expect(again.stats).toMatchObject({ reusedFromCache: 3, filesHashed: 0 })
  })

  it('records a symlink as its target bytes and never follows it out of the workspace (R12)', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'retrace-outside-'))
    try {
      writeFileSync(join(outside, 'secret'), 'outside content')
      mkdirSync(join(outside, 'dir'))
      writeFileSync(join(outside, 'dir', 'deep.txt'), 'deep')
      symlinkSync(join(outside, 'secret'), join(fx.root, 'to-file'))
      symlinkSync(join(outside, 'dir'), join(fx.root, 'to-dir'))
      symlinkSync('nowhere/at/all', join(fx.root, 'dangling'))
      const rawTarget = Buffer.from([0x78, 0xe9]) // a non-UTF-8 target, kept as bytes
      symlinkSync(rawTarget, join(fx.root, 'raw'))
      const result = await fx.scan()

      expect(names(result.files)).toEqual(['dangling', 'raw', 'to-dir', 'to-file'])
      const link = result.files.get(key('to-file'))
      expect(link).toMatchObject({ kind: 'symlink', hash: sha256(Buffer.from(join(outside, 'secret'))), size: Buffer.byteLength(join(outside, 'secret')) })
      expect(fx.blobs.read(link?.hash ?? '').toString()).toBe(join(outside, 'secret'))
      expect(fx.blobs.read(result.files.get(key('raw'))?.hash ?? '').equals(rawTarget)).toBe(true)
      expect(fx.blobs.has(sha256(Buffer.from('outside content')))).toBe(false)
      expect(fx.blobs.has(sha256(Buffer.from('deep')))).toBe(false)
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })

  it('skips a FIFO with a visible reason, without blocking on it', async (ctx) => {
    if (!mkfifo(join(fx.root, 'pipe'))) ctx.skip()
    fx.write('normal.txt')
    const result = await fx.scan()
    expect(names(result.files)).toEqual(['normal.txt'])
    expect(result.skipped).toEqual([{ path: 'pipe', key: key('pipe'), folder: false, reason: expect.stringMatching(/FIFO/) as string }])
  })

  it('never enters the metadata of other version-control systems, in any case (R19)', async () => {
    fx.write('README.md')
    fx.write('.hg/hgrc', '[hooks]\nupdate = ./evil.sh\n')
    fx.write('.hg/store/00changelog.i', 'x')
    fx.write('.jj/repo/store/type', 'git')
    fx.write('.svn/wc.db', 'SQLite format 3')
    fx.write('lib/.svn/entries', '12') // Subversion before 1.7: one in every folder
    fx.write('lib/code.c')
    fx.write('.bzr/branch/branch.conf', 'x')
    fx.write('_darcs/prefs/defaults', 'x')
    fx.write('.pijul/config', 'x')
    fx.write('.fslckout', 'SQLite format 3')
    fx.write('sub/_FOSSIL_', 'SQLite format 3')
    fx.write('vendor/.HG/requires', 'store')
    fx.write('.hgignore', 'syntax: glob\n') // the repository's versioned files are the user's
    const result = await fx.scan()
    expect(names(result.files)).toEqual(['.hgignore', 'README.md', 'lib/code.c'])
    expect(result.skipped).toEqual([])
  })

  it('skips names the journal could not restore anywhere, saying why', async () => {
    fx.write('a\\b') // a backslash: a separator where Windows reads the path
    fx.write('fine.txt')
    const result = await fx.scan()
    expect(names(result.files)).toEqual(['fine.txt'])
    expect(result.skipped.map((s) => s.path)).toEqual(['a\\b'])
    expect(result.skipped[0]?.reason).toBe('Retrace cannot record this name: it contains a backslash')
  })

  it.skipIf(process.platform === 'win32')("records the names only Windows reserves (aux.ts, con.json, nul.txt, a trailing dot), which are ordinary elsewhere (R13)", async () => {
    for (const name of ['aux.ts', 'con.json', 'src/nul.txt', 'CON', 'trailing.', 'space ']) fx.write(name)
    const result = await fx.scan()
    expect(names(result.files)).toEqual(['CON', 'aux.ts', 'con.json', 'space ', 'src/nul.txt', 'trailing.'])
    expect(result.skipped).toEqual([])
  })
})
