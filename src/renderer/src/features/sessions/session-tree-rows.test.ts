import { describe, expect, it } from 'vitest'
import { continuesText, originText, sessionTreeRows } from './session-tree-rows'

interface Fake {
  id: string
  parentId: string | null
  parentTitle: string | null
  createdAt: number
}

const session = (id: string, createdAt: number, parent: string | null = null): Fake => ({ id, createdAt, parentId: parent, parentTitle: parent && `title ${parent}` })

/** The rows as "id@depth", the shape a reader of the list sees. */
const shape = (sessions: Fake[]): string[] => sessionTreeRows(sessions).map((row) => `${row.session.id}@${row.depth}`)

describe('sessionTreeRows', () => {
  it('puts a fork right under its parent even when the parent is older than unrelated sessions', () => {
    // Server order: newest activity first. The fork is the newest; its parent is the oldest.
    const rows = [session('fork', 50, 'old'), session('unrelated-a', 40), session('unrelated-b', 30), session('old', 10)]
    expect(shape(rows)).toEqual(['unrelated-a@0', 'unrelated-b@0', 'old@0', 'fork@1'])
  })

  it('never shows a sub-agent above its parent, and nests a sub-agent of a fork one deeper', () => {
    const rows = [session('agent', 30, 'fork'), session('fork', 20, 'main'), session('main', 10)]
    expect(shape(rows)).toEqual(['main@0', 'fork@1', 'agent@2'])
  })

  it('does not put a new fork at the top under nothing', () => {
    const rows = [session('new-fork', 99, 'main'), session('main', 10)]
    const tree = sessionTreeRows(rows)
    expect(tree[0]).toMatchObject({ session: { id: 'main' }, depth: 0, detachedFrom: null })
    expect(tree[1]).toMatchObject({ session: { id: 'new-fork' }, depth: 1, detachedFrom: null })
  })

  it('orders the children of one parent oldest first, whatever their activity', () => {
    const rows = [session('second', 20, 'main'), session('main', 5), session('first', 10, 'main'), session('third', 30, 'main')]
    expect(shape(rows)).toEqual(['main@0', 'first@1', 'second@1', 'third@1'])
  })

  it('shows a child whose parent is not loaded (a later page) as a root naming the parent', () => {
    const firstPage = [session('fork', 50, 'on-page-2'), session('other', 40)]
    const tree = sessionTreeRows(firstPage)
    expect(tree.map((row) => [row.session.id, row.depth, row.detachedFrom])).toEqual([
      ['fork', 0, 'title on-page-2'],
      ['other', 0, null]
    ])
    // Once the next page brings the parent, the fork moves under it.
    expect(shape([...firstPage, session('on-page-2', 1)])).toEqual(['other@0', 'on-page-2@0', 'fork@1'])
  })

  it('keeps every session once, even when parent links loop', () => {
    const rows = [session('a', 1, 'b'), session('b', 2, 'a'), session('c', 3)]
    expect(shape(rows).sort()).toEqual(['a@0', 'b@1', 'c@0'].sort())
  })
})

describe('row texts', () => {
  it('writes the branch point, with the parent named when it is not the row above', () => {
    expect(originText({ detachedFrom: null, session: { forkTurn: 4 } })).toBe('from turn 4')
    expect(originText({ detachedFrom: null, session: { forkTurn: null } })).toBeNull()
    expect(originText({ detachedFrom: 'Fix login', session: { forkTurn: 4 } })).toBe('from turn 4 of “Fix login”')
    expect(originText({ detachedFrom: 'Fix login', session: { forkTurn: null } })).toBe('from “Fix login”')
  })

  it('says which session a reset continues', () => {
    expect(continuesText({ predecessorId: 'p', predecessorTitle: 'Fix login' })).toBe('continues “Fix login”')
    expect(continuesText({ predecessorId: 'p', predecessorTitle: '' })).toBe('continues “an earlier session”')
    expect(continuesText({ predecessorId: null, predecessorTitle: null })).toBeNull()
  })
})
