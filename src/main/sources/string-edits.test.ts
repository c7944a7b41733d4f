import { describe, expect, it } from 'vitest'
import { applyStringEdits } from './string-edits'

describe('applyStringEdits', () => {
  const edit = (oldString: string, newString: string, replaceAll = false) => ({ oldString, newString, replaceAll })
  it('replaces a string that occurs once, or every occurrence with replaceAll', () => {
    expect(applyStringEdits('a b c', [edit('b', 'B')])).toBe('a B c')
    expect(applyStringEdits('x x', [edit('x', 'y', true)])).toBe('y y')
  })
  it('refuses what Claude Code would have refused: text absent, or there twice without replaceAll', () => {
    expect(applyStringEdits('a b', [edit('c', 'C')])).toBeNull()
    expect(applyStringEdits('x x', [edit('x', 'y')])).toBeNull()
  })
  it('creates from an empty old string only on an empty file', () => {
    expect(applyStringEdits('', [edit('', 'new')])).toBe('new')
    expect(applyStringEdits('old', [edit('', 'new')])).toBeNull()
  })
})
