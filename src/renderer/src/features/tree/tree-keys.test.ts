import { describe, expect, it } from 'vitest'
import { layoutTree, type LayoutSession } from './layout'
import { moveCursor } from './tree-keys'

let clock = 0
const session = (id: string, links: Partial<LayoutSession> = {}): LayoutSession => ({ id, kind: 'main', parentId: null, predecessorId: null, createdAt: (clock += 1), ...links })

// Oldest first: main, its sub-agent, its fork, a lone question, the fork's continuation.
const sessions = [
  session('main'),
  session('explorer', { kind: 'sub-agent', parentId: 'main' }),
  session('fork', { kind: 'branch', parentId: 'main' }),
  session('question'),
  session('fork-next', { predecessorId: 'fork' })
]
const rows = layoutTree(sessions, [], { collapsed: new Set() }).nodes
const byId = new Map(sessions.map((s) => [s.id, s]))
const move = (from: string | null, key: string) => moveCursor(rows, byId, from, key)

describe('moveCursor', () => {
  it('goes up to newer and down to older sessions, row by row', () => {
    expect(rows.map((row) => row.id)).toEqual(['fork-next', 'question', 'fork', 'explorer', 'main'])
    expect(move('fork', 'ArrowUp')).toBe('question')
    expect(move('fork', 'ArrowDown')).toBe('explorer')
    expect(move('fork-next', 'ArrowUp')).toBeNull()
    expect(move('main', 'ArrowDown')).toBeNull()
  })

  it('goes left to where a session came from and right to the first that came from it', () => {
    expect(move('fork', 'ArrowLeft')).toBe('main')
    expect(move('fork-next', 'ArrowLeft')).toBe('fork')
    expect(move('main', 'ArrowLeft')).toBeNull()
    // The oldest of main's sessions: the sub-agent, started before the fork.
    expect(move('main', 'ArrowRight')).toBe('explorer')
    expect(move('fork', 'ArrowRight')).toBe('fork-next')
    expect(move('question', 'ArrowRight')).toBeNull()
  })

  it('starts at the newest session, and Home / End go to either end', () => {
    expect(move(null, 'ArrowDown')).toBe('fork-next')
    expect(move('gone', 'ArrowLeft')).toBe('fork-next')
    expect(move('fork', 'Home')).toBe('fork-next')
    expect(move('fork', 'End')).toBe('main')
  })
})
