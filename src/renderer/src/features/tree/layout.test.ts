import { describe, expect, it } from 'vitest'
import { countSubAgents, layoutTree, RANK_GAP, type LayoutSession, type PlacedNode, type TreeLayout } from './layout'

let clock = 0
function session(id: string, links: Partial<LayoutSession> = {}): LayoutSession {
  clock += 1
  return { id, kind: 'main', parentId: null, predecessorId: null, createdAt: clock, ...links }
}

/** The demo's shape: a main session with a sub-agent and a branch, a bug hunt and its successor, a lone question. */
function demo(): LayoutSession[] {
  return [
    session('main'),
    session('explorer', { kind: 'sub-agent', parentId: 'main' }),
    session('branch', { kind: 'branch', parentId: 'main' }),
    session('flaky'),
    session('notes', { predecessorId: 'flaky' }),
    session('question', { kind: 'ephemeral' })
  ]
}

const none = { collapsed: new Set<string>() }
const node = (layout: TreeLayout, id: string): PlacedNode => {
  const found = layout.nodes.find((n) => n.id === id)
  if (!found) throw new Error(`${id} is not laid out`)
  return found
}
const edgeKinds = (layout: TreeLayout) => layout.edges.map((e) => `${e.kind} ${e.source}->${e.target}`).sort()

function overlaps(nodes: readonly PlacedNode[]): [string, string] | null {
  const sorted = [...nodes].sort((a, b) => a.x - b.x)
  for (let i = 0; i < sorted.length; i += 1) {
    const a = sorted[i] as PlacedNode
    for (let j = i + 1; j < sorted.length; j += 1) {
      const b = sorted[j] as PlacedNode
      if (b.x >= a.x + a.width) break
      if (a.y < b.y + b.height && b.y < a.y + a.height) return [a.id, b.id]
    }
  }
  return null
}

describe('layoutTree', () => {
  it('draws one edge per link, of the right kind, merges included', () => {
    const layout = layoutTree(demo(), [{ branchId: 'branch', intoId: 'main' }], none)
    expect(layout.nodes).toHaveLength(6)
    expect(edgeKinds(layout)).toEqual(['fork main->branch', 'merge branch->main', 'sub-agent main->explorer', 'successor flaky->notes'])
    expect(new Set(layout.edges.map((e) => e.id)).size).toBe(layout.edges.length)
  })

  it('puts forks, sub-agents and successors to the right of where they came from', () => {
    const layout = layoutTree(demo(), [], none)
    for (const [from, to] of [['main', 'explorer'], ['main', 'branch'], ['flaky', 'notes']] as const) {
      expect(node(layout, to).x).toBeGreaterThanOrEqual(node(layout, from).x + node(layout, from).width)
    }
    // Siblings stack, oldest on top.
    expect(node(layout, 'explorer').x).toBe(node(layout, 'branch').x)
    expect(node(layout, 'explorer').y).toBeLessThan(node(layout, 'branch').y)
  })

  it('labels a fork edge with the turn it goes another way from, in a gap wide enough for the label', () => {
    const sessions = [session('main'), session('fork', { kind: 'branch', parentId: 'main', forkTurn: 128 }), session('sub', { kind: 'sub-agent', parentId: 'main', forkTurn: 1 })]
    const layout = layoutTree(sessions, [], none)
    expect(layout.edges.map((e) => [e.kind, e.label ?? null])).toEqual([
      ['fork', 'from turn 128'],
      ['sub-agent', null]
    ])
    // The label sits mid-gap: up to two-digit turns, 12 characters of 12 px semi-bold text (~7 px each) and 4 px padding each side.
    const gap = node(layout, 'fork').x - (node(layout, 'main').x + node(layout, 'main').width)
    expect(gap).toBe(RANK_GAP)
    expect(gap).toBeGreaterThanOrEqual('from turn 99'.length * 7 + 8)
  })

  it('never overlaps nodes', () => {
    expect(overlaps(layoutTree(demo(), [], none).nodes)).toBeNull()
    expect(overlaps(layoutTree(generated(300), [], none).nodes)).toBeNull()
  })

  it('hides collapsed sub-agents and everything under them, and counts them on the parent', () => {
    const sessions = [
      ...demo(),
      session('explorer-fork', { kind: 'branch', parentId: 'explorer' }),
      session('nested', { kind: 'sub-agent', parentId: 'explorer' }),
      session('after-explorer', { predecessorId: 'explorer' })
    ]
    const expanded = layoutTree(sessions, [], none)
    expect(expanded.nodes).toHaveLength(9)
    expect(node(expanded, 'main').hiddenChildren).toBe(0)

    const layout = layoutTree(sessions, [{ branchId: 'explorer-fork', intoId: 'explorer' }], { collapsed: new Set(['main']) })
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(['branch', 'flaky', 'main', 'notes', 'question'])
    expect(node(layout, 'main').hiddenChildren).toBe(4)
    // Forks of a collapsed session stay; no edge points at a hidden session.
    expect(edgeKinds(layout)).toEqual(['fork main->branch', 'successor flaky->notes'])

    // Collapsing only the sub-agent's own sub-agents hides just those.
    const inner = layoutTree(sessions, [], { collapsed: new Set(['explorer']) })
    expect(inner.nodes).toHaveLength(8)
    expect(node(inner, 'explorer').hiddenChildren).toBe(1)
    // A collapsed session without sub-agents hides nothing.
    expect(layoutTree(sessions, [], { collapsed: new Set(['flaky']) }).nodes).toHaveLength(9)
  })

  it('survives links that loop, point at themselves or at sessions that are not there', () => {
    const sessions = [
      session('a', { parentId: 'b' }),
      session('b', { predecessorId: 'a' }),
      session('self', { parentId: 'self' }),
      session('orphan', { kind: 'sub-agent', parentId: 'gone' }),
      session('a', { parentId: 'self' })
    ]
    const layout = layoutTree(sessions, [{ branchId: 'gone', intoId: 'a' }], { collapsed: new Set(['a', 'b']) })
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(['a', 'b', 'orphan', 'self'])
    expect(edgeKinds(layout)).toEqual(['fork b->a', 'successor a->b'])
    expect(overlaps(layout.nodes)).toBeNull()
  })

  it('is deterministic', () => {
    const sessions = generated(120)
    expect(layoutTree([...sessions].reverse(), [], none)).toEqual(layoutTree(sessions, [], none))
  })

  it('lays out 2,000 sessions with finite positions', () => {
    const sessions = generated(2000)
    const layout = layoutTree(sessions, [], none)
    expect(layout.nodes).toHaveLength(2000)
    for (const n of layout.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true)
    expectRoughlySquare(layout)
    expect(overlaps(layout.nodes)).toBeNull()

    // One tree of 2,000 (a main session with a long tail of successors and sub-agents) too.
    const chain = [session('root')]
    for (let i = 1; i < 2000; i += 1) chain.push(session(`c${i}`, i % 3 === 0 ? { kind: 'sub-agent', parentId: `c${i - 1}` } : { predecessorId: chain[i - 1]?.id ?? null }))
    const deep = layoutTree(chain, [], none)
    expect(deep.nodes).toHaveLength(2000)
    for (const n of deep.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true)
    // The chain wraps into rows instead of running 600,000 pixels to the right.
    expectRoughlySquare(deep)
    expect(overlaps(deep.nodes)).toBeNull()
  })
})

describe('countSubAgents', () => {
  it('counts the sub-agents each session started', () => {
    const counts = countSubAgents([...demo(), session('second', { kind: 'sub-agent', parentId: 'main' })])
    expect(counts.get('main')).toBe(2)
    expect(counts.get('flaky')).toBeUndefined()
  })
})

/** Packed into a block, not one endless row or column. */
function expectRoughlySquare(layout: TreeLayout): void {
  const width = Math.max(...layout.nodes.map((n) => n.x + n.width))
  const height = Math.max(...layout.nodes.map((n) => n.y + n.height))
  expect(width / height).toBeGreaterThan(0.25)
  expect(width / height).toBeLessThan(4)
}

/** A workspace-like mix: many lone sessions, some with sub-agents, forks of forks, successor chains. */
function generated(count: number): LayoutSession[] {
  const sessions: LayoutSession[] = []
  let seed = 7
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  for (let i = 0; i < count; i += 1) {
    const roll = random()
    const earlier = sessions[Math.floor(random() * sessions.length)]
    if (!earlier || roll < 0.45) sessions.push(session(`s${i}`))
    else if (roll < 0.75) sessions.push(session(`s${i}`, { kind: 'sub-agent', parentId: earlier.id }))
    else if (roll < 0.9) sessions.push(session(`s${i}`, { kind: 'branch', parentId: earlier.id }))
    else sessions.push(session(`s${i}`, { predecessorId: earlier.id }))
  }
  return sessions
}
