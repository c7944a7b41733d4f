import { describe, expect, it } from 'vitest'
import { pathsNamedBy } from './named-paths'

describe('the paths a tool call names (R43)', () => {
  it('reads file keys in any spelling, arrays of them, and path-like values', () => {
    expect(pathsNamedBy({ file_path: '/w/a.ts', content: 'x' })).toEqual(['/w/a.ts'])
    expect(pathsNamedBy({ notebook_path: 'n.ipynb', cell_id: '3' })).toEqual(['n.ipynb'])
    expect(pathsNamedBy({ targetFile: 'src/b.ts' })).toEqual(['src/b.ts'])
    expect(pathsNamedBy({ paths: ['a.md', 'b.md'] })).toEqual(['a.md', 'b.md'])
    expect(pathsNamedBy({ files: [{ path: 'x/y.py', diff: '…' }] })).toEqual(['x/y.py'])
    expect(pathsNamedBy({ dest: '/tmp/out.txt', text: 'hello world' })).toEqual(['/tmp/out.txt'])
    expect(pathsNamedBy({ where: 'src/lib/util.ts' })).toEqual(['src/lib/util.ts'])
  })

  it('leaves out commands, sentences, URLs, folders by folder keys, and non-objects', () => {
    expect(pathsNamedBy({ command: 'rm -rf build/out' })).toEqual([])
    expect(pathsNamedBy({ query: 'how do I edit src/a.ts?' })).toEqual([])
    expect(pathsNamedBy({ url: 'https://example.com/a/b' })).toEqual([])
    expect(pathsNamedBy({ dir: '/w/src', cwd: '/w', pattern: '*.ts' })).toEqual([])
    expect(pathsNamedBy({ file: 'a sentence, not a file' })).toEqual([])
    expect(pathsNamedBy('a/b.ts')).toEqual([])
    expect(pathsNamedBy(null)).toEqual([])
  })
})
