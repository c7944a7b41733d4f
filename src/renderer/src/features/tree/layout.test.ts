import { describe, expect, it } from 'vitest'
import { countContinuations, countSubAgents, DAY_GAP, LANE_GAP, layoutTree, NODE_HEIGHT, type LayoutSession, type PlacedNode, type TreeLayout } from './layout'

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

const HOUR = 60 * 60 * 1000

describe('layoutTree', () => {
  it('draws one edge per link, of the right kind, merges included', () => {
    const layout = layoutTree(demo(), [{ branchId: 'branch', intoId: 'main' }], none)
    expect(layout.nodes).toHaveLength(6)
    expect(edgeKinds(layout)).toEqual(['fork main->branch', 'merge branch->main', 'sub-agent main->explorer', 'successor flaky->notes'])
    expect(new Set(layout.edges.map((e) => e.id)).size).toBe(layout.edges.length)
  })

  it('puts time on the vertical axis: one row per session, newest at the top', () => {
    const layout = layoutTree([...generated(200)].reverse(), [], none)
    const byTime = [...layout.nodes].sort((a, b) => a.y - b.y).map((n) => n.id)
    // generated() creates s0, s1, … one tick apart: newest first is the reverse.
    expect(byTime).toEqual(Array.from({ length: 200 }, (_, index) => `s${199 - index}`))
    const ys = layout.nodes.map((n) => n.y)
    expect(new Set(ys).size).toBe(200)
  })

  it('puts forks and sub-agents in lanes right of their parent, a /clear continuation in its own lane', () => {
    const layout = layoutTree(demo(), [], none)
    for (const [from, to] of [['main', 'explorer'], ['main', 'branch']] as const) {
      expect(node(layout, to).lane).toBeGreaterThan(node(layout, from).lane)
      expect(node(layout, to).x).toBeGreaterThanOrEqual(node(layout, from).x + node(layout, from).width)
    }
    // Siblings off one parent share the lane next to it when their rows allow.
    expect(node(layout, 'explorer').lane).toBe(node(layout, 'branch').lane)
    // The continuation carries on its predecessor's line, its edge straight up.
    expect(node(layout, 'notes').lane).toBe(node(layout, 'flaky').lane)
    expect(layout.edges.find((e) => e.kind === 'successor')?.vertical).toBe(true)
    // Unrelated sessions go back to the first lane when it is free at their row.
    expect(node(layout, 'question').lane).toBe(0)
    expect(node(layout, 'main').lane).toBe(0)
  })

  it('moves an unrelated session out of a lane a continuation runs through', () => {
    const sessions = [session('first'), session('between'), session('next', { predecessorId: 'first' })]
    const layout = layoutTree(sessions, [], none)
    expect(node(layout, 'next').lane).toBe(node(layout, 'first').lane)
    expect(node(layout, 'between').lane).not.toBe(node(layout, 'first').lane)
  })

  it('labels a fork edge with the turn it goes another way from, in a gap wide enough for the label', () => {
    const sessions = [session('main'), session('fork', { kind: 'branch', parentId: 'main', forkTurn: 128 }), session('sub', { kind: 'sub-agent', parentId: 'main', forkTurn: 1 })]
    const layout = layoutTree(sessions, [], none)
    expect(layout.edges.map((e) => [e.kind, e.label ?? null])).toEqual([
      ['fork', 'from turn 128'],
      ['sub-agent', null]
    ])
    const gap = node(layout, 'fork').x - (node(layout, 'main').x + node(layout, 'main').width)
    expect(gap).toBe(LANE_GAP)
    expect(gap).toBeGreaterThanOrEqual('from turn 99'.length * 7 + 8)
  })

  it('marks each day above its rows and each new hour beside its first row', () => {
    const day = new Date(2026, 2, 10, 9, 15).getTime()
    const sessions = [
      session('monday-9', { createdAt: day }),
      session('monday-9b', { createdAt: day + 20 * 60 * 1000 }),
      session('monday-14', { createdAt: day + 5 * HOUR }),
      session('tuesday', { createdAt: day + 24 * HOUR })
    ]
    const layout = layoutTree(sessions, [], none)
    const days = layout.ticks.filter((tick) => tick.kind === 'day')
    expect(days.map((tick) => new Date(tick.at).getDate())).toEqual([11, 10])
    // A day's mark sits in the gap above its newest row.
    expect(days[1]?.y).toBe(node(layout, 'monday-14').y - DAY_GAP)
    expect(node(layout, 'monday-14').y - (node(layout, 'tuesday').y + NODE_HEIGHT)).toBeGreaterThanOrEqual(DAY_GAP)
    const hours = layout.ticks.filter((tick) => tick.kind === 'hour').map((tick) => new Date(tick.at).getHours())
    expect(hours).toEqual([9, 14, 9])
  })

  it('never overlaps nodes', () => {
    expect(overlaps(layoutTree(demo(), [], none).nodes)).toBeNull()
    expect(overlaps(layoutTree(generated(300), [], none).nodes)).toBeNull()
  })

  it('folds sub-agents and /clear continuations into their session, with a count', () => {
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
    // Forks of a folded session stay; no edge points at a hidden session.
    expect(edgeKinds(layout)).toEqual(['fork main->branch', 'successor flaky->notes'])
    // The folded rows are gone: no hole where they were.
    expect(layout.nodes.map((n) => n.y).sort((a, b) => a - b)[4]).toBeLessThan(5 * (NODE_HEIGHT + DAY_GAP))

    // A /clear chain folds into its first session.
    const chain = layoutTree(sessions, [], { collapsed: new Set(['flaky']) })
    expect(chain.nodes.map((n) => n.id)).not.toContain('notes')
    expect(node(chain, 'flaky').hiddenChildren).toBe(1)
    // Folding the sub-agent hides its own sub-agent and continuation (and what hangs off them), not its fork.
    const inner = layoutTree(sessions, [], { collapsed: new Set(['explorer']) })
    expect(inner.nodes).toHaveLength(7)
    expect(node(inner, 'explorer').hiddenChildren).toBe(2)
    // A folded session with nothing to fold hides nothing.
    expect(layoutTree(sessions, [], { collapsed: new Set(['question']) }).nodes).toHaveLength(9)
  })

  it('survives links that loop, point at themselves or at sessions that are not there', () => {
    const sessions = [
      session('a', { parentId: 'b' }),
      session('b', { predecessorId: 'a' }),
      session('self', { parentId: 'self' }),
      session('orphan', { kind: 'sub-agent', parentId: 'gone' }),
      session('a', { parentId: 'self' })
    ]
    const layout = layoutTree(sessions, [{ branchId: 'gone', intoId: 'a' }], { collapsed: new Set(['self']) })
    expect(layout.nodes.map((n) => n.id).sort()).toEqual(['a', 'b', 'orphan', 'self'])
    expect(edgeKinds(layout)).toEqual(['fork b->a', 'successor a->b'])
    expect(overlaps(layout.nodes)).toBeNull()
  })

  it('is deterministic', () => {
    const sessions = generated(120)
    expect(layoutTree([...sessions].reverse(), [], none)).toEqual(layoutTree(sessions, [], none))
  })

  it('lays out 2,000 sessions with finite positions in few lanes', () => {
    const sessions = generated(2000)
    const layout = layoutTree(sessions, [], none)
    expect(layout.nodes).toHaveLength(2000)
    for (const n of layout.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true)
    expect(overlaps(layout.nodes)).toBeNull()

    // One tree of 2,000 (a main session continued after /clear 1,333 times, a sub-agent every third session): one line with a lane beside it.
    const chain = [session('root')]
    let line = 'root'
    for (let i = 1; i < 2000; i += 1) {
      if (i % 3 === 0) chain.push(session(`c${i}`, { kind: 'sub-agent', parentId: line }))
      else {
        chain.push(session(`c${i}`, { predecessorId: line }))
        line = `c${i}`
      }
    }
    const deep = layoutTree(chain, [], none)
    expect(deep.nodes).toHaveLength(2000)
    expect(Math.max(...deep.nodes.map((n) => n.lane))).toBeLessThanOrEqual(2)
    expect(overlaps(deep.nodes)).toBeNull()
  })
})

describe('countSubAgents', () => {
  it('counts the sub-agents each session started', () => {
    const counts = countSubAgents([...demo(), session('second', { kind: 'sub-agent', parentId: 'main' })])
    expect(counts.get('main')).toBe(2)
    expect(counts.get('flaky')).toBeUndefined()
  })

  it('counts the /clear continuations of each session, not a fork that also names a predecessor', () => {
    const counts = countContinuations([...demo(), session('fork-after', { kind: 'branch', parentId: 'main', predecessorId: 'flaky' })])
    expect(counts.get('flaky')).toBe(1)
    expect(counts.get('main')).toBeUndefined()
  })
})

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
