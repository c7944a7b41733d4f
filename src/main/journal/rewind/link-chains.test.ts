import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RelPath } from '../../fs/paths'
import { tempDir } from '../../testing/temp-runtime'
import { MAX_LINKS_FOLLOWED, PlannedTree } from './link-chains'

const rel = (path: string) => Buffer.from(path) as RelPath

describe('resolving the links a rewind writes (R12, R24)', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

  /** A real workspace folder (with `onDisk` links already there) and the links a plan writes in it. */
  function tree(planned: Record<string, string | null>, onDisk: Record<string, string> = {}) {
    const dir = tempDir('retrace-links-')
    cleanups.push(() => dir.dispose())
    const root = join(dir.path, 'project')
    mkdirSync(root)
    for (const [path, target] of Object.entries(onDisk)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      symlinkSync(target, join(root, path))
    }
    const planTree = new PlannedTree(Buffer.from(root), Object.entries(planned).map(([path, target]) => [rel(path), target === null ? null : Buffer.from(target)]))
    return {
      root,
      /** Why the planned link at `path` leaves the workspace, or null. */
      leaves: (path: string) => planTree.whyLeaves(rel(path), Buffer.from(planned[path] ?? ''))
    }
  }

  it('refuses the chain of the issue: l2 → . then l1 → l2/../outside.txt, each inside by its text', () => {
    const { leaves } = tree({ l2: '.', l1: 'l2/../outside.txt' })
    expect(leaves('l2')).toBeNull()
    expect(leaves('l1')).toBe('which leads outside the workspace through l2 → "."')
  })

  it('refuses .. after a link to a parent folder: sub/up → .. then deep → sub/up/../x and a/c → b/../..', () => {
    const { leaves } = tree({ 'sub/up': '..', deep: 'sub/up/../outside.txt', 'a/b': '..', 'a/c': 'b/../..' })
    expect(leaves('sub/up')).toBeNull()
    expect(leaves('a/b')).toBeNull()
    expect(leaves('deep')).toBe('which leads outside the workspace through sub/up → ".."')
    expect(leaves('a/c')).toBe('which leads outside the workspace through a/b → ".."')
  })

  it('follows links already on disk, and a link the plan replaces, which may stay if its item is skipped', () => {
    const { leaves } = tree({ l1: 'mine/../x', cfg: 'sys/passwd', l3: 'kept/../y', kept: null }, { mine: '.', sys: '/etc', kept: '.' })
    expect(leaves('l1')).toBe('which leads outside the workspace through mine → "."')
    expect(leaves('cfg')).toBe('which leads outside the workspace through sys → "/etc"')
    expect(leaves('l3')).toBe('which leads outside the workspace through kept → "."')
  })

  it('resolves the link from the real folder it is in, through a link on the way', () => {
    // `in/deeper/up → ../..` reads as the root, but `in` is a link to `a/b`: it resolves to `a`, inside.
    const { leaves } = tree({ 'in/deeper/up': '../..', 'in2/x': '../..' }, { in: 'a/b', in2: '.' })
    expect(leaves('in/deeper/up')).toBeNull()
    expect(leaves('in2/x')).toBe('which leads outside the workspace through in2 → "."')
  })

  it('refuses a loop, and a chain longer than any system follows', () => {
    const chain: Record<string, string> = { [`c${MAX_LINKS_FOLLOWED + 1}`]: 'end.txt' }
    for (let i = 0; i <= MAX_LINKS_FOLLOWED; i++) chain[`c${i}`] = `c${i + 1}`
    const { leaves } = tree({ a: 'b', b: 'a', c: 'a/x', ...chain })
    expect(leaves('c')).toMatch(/^through a chain of more than 40 links \(a loop\?\)/)
    expect(leaves('c0')).toMatch(/^through a chain of more than 40 links/)
    expect(leaves(`c${MAX_LINKS_FOLLOWED - 1}`)).toBeNull() // a short chain of the same links
  })

  it('refuses links whose text is outside, as before', () => {
    const { leaves } = tree({ etc: '/etc', 'docs/key': '../../.ssh/id_rsa', 'a/b/c': '../../../x', 'a/link': 'x/../../..', win: 'C:\\Windows', win2: '..\\..\\x', top: '..', empty: '' })
    for (const path of ['etc', 'docs/key', 'a/b/c', 'a/link', 'win', 'win2', 'top', 'empty']) expect(leaves(path), path).toBe('outside the workspace')
  })

  it('keeps links inside the workspace, through other links too', () => {
    const { root, leaves } = tree({ 'docs/readme': '../README.md', 'a/b/c': '../../x', self: '.', 'a/sibling': 'b/../c', l2: 'sub', l3: 'l2/file', up: 'sub/..', 'sub/x': '../l2/y' }, { old: 'sub' })
    mkdirSync(join(root, 'sub'))
    writeFileSync(join(root, 'README.md'), '# project\n')
    for (const path of ['docs/readme', 'a/b/c', 'self', 'a/sibling', 'l2', 'l3', 'up', 'sub/x']) expect(leaves(path), path).toBeNull()
  })
})
