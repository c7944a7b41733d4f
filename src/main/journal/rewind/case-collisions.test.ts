import { describe, expect, it } from 'vitest'
import type { RelPath } from '../../fs/paths'
import { refuseCaseCollisions, type PlanItem } from './plan'

const item = (path: string): PlanItem => ({
  path: Buffer.from(path) as RelPath,
  key: Buffer.from(path).toString('latin1') as PlanItem['key'],
  target: null,
  expected: null,
  current: null,
  stamp: null,
  action: 'delete',
  conflict: null,
  refused: null,
  linkTarget: null,
  needsConfirmation: null
})

describe('paths that differ only by case in one rewind (R14)', () => {
  it('refuses paths that differ only by case only where the folder they differ in ignores case', () => {
    const asked: string[] = []
    const items = [item('Readme.md'), item('README.md'), item('src/A.ts'), item('src/a.ts'), item('other.txt')]
    refuseCaseCollisions(items, (folder) => {
      asked.push(folder.toString())
      return folder.toString() === 'src'
    })
    expect(asked.sort()).toEqual(['', 'src'])
    expect(items.map((i) => [i.path.toString(), i.refused !== null])).toEqual([
      ['Readme.md', false],
      ['README.md', false],
      ['src/A.ts', true],
      ['src/a.ts', true],
      ['other.txt', false]
    ])
    expect(items[2]?.refused).toBe('its name differs only by case from another file in this rewind (src/A.ts, src/a.ts), and this disk ignores case: one would overwrite the other')
  })
})
