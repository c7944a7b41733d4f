import { describe, expect, it } from 'vitest'
import { applyPatchFromCommand, parseApplyPatch, type PatchOp } from './apply-patch'

function ops(text: string): PatchOp[] {
  const result = parseApplyPatch(text)
  if (!result.ok) throw new Error(`expected a valid patch, got: ${result.error}`)
  return result.ops
}

function error(text: string): string {
  const result = parseApplyPatch(text)
  if (result.ok) throw new Error('expected the patch to be rejected')
  return result.error
}

describe('parseApplyPatch', () => {
  it('adds a file: every "+" line, with its newline', () => {
    expect(ops('*** Begin Patch\n*** Add File: src/hello.ts\n+export const a = 1\n+\n+// end\n*** End Patch\n')).toEqual([
      { type: 'add', path: 'src/hello.ts', content: 'export const a = 1\n\n// end\n' }
    ])
  })

  it('adds an empty file', () => {
    expect(ops('*** Begin Patch\n*** Add File: empty.txt\n*** End Patch')).toEqual([{ type: 'add', path: 'empty.txt', content: '' }])
  })

  it('deletes a file', () => {
    expect(ops('*** Begin Patch\n*** Delete File: old/gone.md\n*** End Patch')).toEqual([{ type: 'delete', path: 'old/gone.md' }])
  })

  it('updates a file with several hunks, keeping the hunk text verbatim', () => {
    const hunks = [
      '@@ class Foo',
      ' context one',
      '-old line',
      '+new line',
      ' context two',
      '@@ def bar():',
      '-    return 1',
      '+    return 2',
      '@@',
      ' last',
      '+appended',
      '*** End of File'
    ]
    const result = ops(['*** Begin Patch', '*** Update File: pkg/foo.py', ...hunks, '*** End Patch'].join('\n'))
    expect(result).toEqual([{ type: 'update', path: 'pkg/foo.py', movePath: null, hunks: hunks.map((l) => `${l}\n`).join('') }])
  })

  it('accepts a first hunk without its "@@" line and empty lines as empty context', () => {
    const result = ops('*** Begin Patch\n*** Update File: a.txt\n keep\n\n-drop\n+add\n*** End Patch')
    expect(result).toEqual([{ type: 'update', path: 'a.txt', movePath: null, hunks: ' keep\n\n-drop\n+add\n' }])
  })

  it('moves a file while updating it', () => {
    expect(ops('*** Begin Patch\n*** Update File: src/old.ts\n*** Move to: src/new.ts\n@@\n-a\n+b\n*** End Patch')).toEqual([
      { type: 'update', path: 'src/old.ts', movePath: 'src/new.ts', hunks: '@@\n-a\n+b\n' }
    ])
  })

  it('parses several operations in order, CRLF line ends and a heredoc wrapper', () => {
    const patch = [
      "apply_patch <<'EOF'",
      '*** Begin Patch',
      '*** Add File: b.txt',
      '+B',
      '*** Update File: a.txt',
      '@@',
      '-x',
      '+y',
      '*** Delete File: c.txt',
      '*** End Patch',
      'EOF'
    ].join('\r\n')
    expect(ops(patch).map((op) => [op.type, op.path])).toEqual([
      ['add', 'b.txt'],
      ['update', 'a.txt'],
      ['delete', 'c.txt']
    ])
  })

  it('treats " *** text" inside a hunk as a context line, not a marker', () => {
    expect(ops('*** Begin Patch\n*** Update File: notes.md\n@@\n *** not a marker\n-a\n+b\n*** End Patch')).toEqual([
      { type: 'update', path: 'notes.md', movePath: null, hunks: '@@\n *** not a marker\n-a\n+b\n' }
    ])
  })

  it('accepts absolute paths and paths with spaces', () => {
    expect(ops('*** Begin Patch\n*** Delete File: /tmp/My File.txt\n*** End Patch')).toEqual([{ type: 'delete', path: '/tmp/My File.txt' }])
  })

  it('rejects malformed patches with a reason, never throwing', () => {
    expect(error('')).toMatch(/first line .*Begin Patch/)
    expect(error('just some text')).toMatch(/first line .*Begin Patch/)
    expect(error('*** Begin Patch\n*** Add File: a\n+x\n')).toMatch(/last line .*End Patch/)
    expect(error('*** Begin Patch\n*** End Patch')).toMatch(/no file operation/)
    expect(error('*** Begin Patch\n*** Frobnicate File: a\n*** End Patch')).toMatch(/line 2: .*Frobnicate.* is not a file operation/)
    expect(error('*** Begin Patch\n*** Update File: a.txt\n*** End Patch')).toMatch(/update of 'a.txt' has no hunk/)
    expect(error('*** Begin Patch\n*** Update File: a.txt\n@@\n-a\nbroken line\n*** End Patch')).toMatch(
      /line 5: unexpected line in the update of 'a.txt'/
    )
    expect(error('*** Begin Patch\n*** Add File: a.txt\n+x\nno plus sign\n*** End Patch')).toMatch(/line 4: .* is not a file operation/)
    expect(error('*** Begin Patch\n*** Add File: \n*** End Patch')).toMatch(/without a path/)
    expect(error('*** Begin Patch\n*** Update File: a\n*** End of File\n*** End Patch')).toMatch(/outside a hunk/)
    expect(error('*** Begin Patch\n*** Update File: a\n@@\n-a\n*** End of File\n+b\n*** End Patch')).toMatch(/without a new '@@'/)
  })
})

describe('applyPatchFromCommand', () => {
  const patch = '*** Begin Patch\n*** Add File: x\n+1\n*** End Patch'

  it('finds the patch of ["apply_patch", patch]', () => {
    expect(applyPatchFromCommand(['apply_patch', patch])).toEqual({ patch, cd: null })
    expect(applyPatchFromCommand(['applypatch', patch])).toEqual({ patch, cd: null })
  })

  it("finds the patch of bash -lc \"apply_patch <<'EOF' … EOF\", with a leading cd", () => {
    expect(applyPatchFromCommand(['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF\n`])).toEqual({ patch, cd: null })
    expect(applyPatchFromCommand(['/bin/zsh', '-c', `cd sub/dir && apply_patch <<"PATCH"\n${patch}\nPATCH`])).toEqual({ patch, cd: 'sub/dir' })
    expect(applyPatchFromCommand(`apply_patch <<EOF\n${patch}\nEOF`)).toEqual({ patch, cd: null })
  })

  it('returns null for other commands', () => {
    expect(applyPatchFromCommand(['bash', '-lc', 'ls -la'])).toBeNull()
    expect(applyPatchFromCommand(['git', 'apply', 'x.patch'])).toBeNull()
    expect(applyPatchFromCommand('echo apply_patch')).toBeNull()
    expect(applyPatchFromCommand(['apply_patch'])).toBeNull()
  })
})
