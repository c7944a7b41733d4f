import type { TreeMerge } from '../../../../shared/contract'
import { buildForest, compare, hiddenByCollapse, type Forest, type LayoutSession } from './forest'
import { timeTicks, type TimeTick } from './time-ticks'

export type { LayoutSession } from './forest'
export type { TimeTick } from './time-ticks'
export type LayoutMerge = Pick<TreeMerge, 'branchId' | 'intoId'>

export type TreeEdgeKind = 'fork' | 'sub-agent' | 'successor' | 'merge'

export interface PlacedNode {
  id: string
  /** Top-left corner, in graph pixels. */
  x: number
  y: number
  width: number
  height: number
  /** Which column (0 = leftmost): forks and sub-agents go right of their parent. */
  lane: number
  /** Sessions folded into this one (its sub-agents and `/clear` continuations, with everything under them). */
  hiddenChildren: number
}

export interface TreeEdge {
  id: string
  source: string
  target: string
  kind: TreeEdgeKind
  /** The parent's turn a branch goes another way from ("from turn 3", as its card says), when known. */
  label?: string
  /** A continuation in its predecessor's own lane: drawn straight up from it rather than out of its side. */
  vertical?: boolean
}

export interface TreeLayout {
  nodes: PlacedNode[]
  edges: TreeEdge[]
  /** Day and hour marks down the left of the graph, at the rows where a new day or hour begins. */
  ticks: TimeTick[]
  /** Width of the lanes in use, for the day rules. */
  width: number
}

export interface LayoutOptions {
  /** Sessions whose sub-agents and continuations are folded into them. */
  collapsed: ReadonlySet<string>
}

export const NODE_WIDTH = 280
export const NODE_HEIGHT = 84

/**
 * Merges run backwards, from a branch to its parent in a lane to the left, so they leave the
 * branch's left side and enter the parent's right side, low on both: the curve stays in the gap
 * between the lanes, below the fork edge that goes the other way.
 */
export const MERGE_ANCHOR = 0.8
/** Between two sessions' rows. */
export const ROW_GAP = 14
/** Extra room above a new day's first row, for its mark. */
export const DAY_GAP = 30
/**
 * Between lanes: room for a fork edge's label ("from turn 99": 12 px semi-bold, about 85 px
 * with its padding) in the middle of the gap, clear of both cards.
 */
export const LANE_GAP = 96

/**
 * Lay out a workspace's sessions on a time axis, the way a commit graph reads: one row per
 * session, newest at the top (as the list), so reading down goes back in time; each session in a
 * lane. A `/clear` continuation stays in its predecessor's lane when it can (one line of work);
 * forks and sub-agents take the first free lane right of their parent, so they read as lanes off
 * it. Unrelated sessions share the leftmost lane free at their row. Merges and second links
 * are drawn, not laid out. Rows are ordered by creation (not activity) time, so a live
 * session's new messages never make the graph jump.
 *
 * Pure: same input, same output; nothing here touches React or the DOM.
 */
export function layoutTree(sessions: readonly LayoutSession[], merges: readonly LayoutMerge[], options: LayoutOptions): TreeLayout {
  const forest = buildForest(sessions)
  const { hiddenBy, hiddenCount } = hiddenByCollapse(forest, options.collapsed)
  const shown = forest.ordered.filter((session) => !hiddenBy.has(session.id))
  // Newest first; ties by id so the picture is the same whatever order the sessions came in.
  const rows = [...shown].sort((a, b) => b.createdAt - a.createdAt || compare(b.id, a.id))
  const rowOf = new Map(rows.map((session, index) => [session.id, index]))
  const lanes = assignLanes(forest, shown, rowOf)
  const ys = rowTops(rows)

  const nodes: PlacedNode[] = rows.map((session, index) => {
    const lane = lanes.get(session.id) ?? 0
    return { id: session.id, x: lane * (NODE_WIDTH + LANE_GAP), y: ys[index] ?? 0, width: NODE_WIDTH, height: NODE_HEIGHT, lane, hiddenChildren: hiddenCount.get(session.id) ?? 0 }
  })
  const laneCount = nodes.reduce((max, node) => Math.max(max, node.lane + 1), 1)
  return {
    nodes,
    edges: edgesOf(forest, merges, (id) => forest.byId.has(id) && !hiddenBy.has(id), lanes),
    ticks: timeTicks(rows.map((session, index) => ({ at: session.createdAt, y: ys[index] ?? 0 })), DAY_GAP),
    width: laneCount * NODE_WIDTH + (laneCount - 1) * LANE_GAP
  }
}

/** Each row's top: rows ROW_GAP apart, with DAY_GAP more where a new (local) day begins. */
function rowTops(rows: readonly LayoutSession[]): number[] {
  const tops: number[] = []
  let y = DAY_GAP
  rows.forEach((session, index) => {
    const previous = rows[index - 1]
    if (previous) y += NODE_HEIGHT + ROW_GAP + (dayOf(previous.createdAt) === dayOf(session.createdAt) ? 0 : DAY_GAP)
    tops.push(y)
  })
  return tops
}

function dayOf(at: number): string {
  return new Date(at).toDateString()
}

/**
 * Lanes, owners before what hangs off them (oldest first, each tree whole). A lane holds
 * intervals of rows; a session claims its own row, and a continuation kept in its
 * predecessor's lane also claims the rows between the two, where its edge runs.
 */
function assignLanes(forest: Forest, shown: readonly LayoutSession[], rowOf: ReadonlyMap<string, number>): Map<string, number> {
  const taken: [number, number][][] = []
  const free = (lane: number, from: number, to: number) => (taken[lane] ?? []).every(([a, b]) => b < from || a > to)
  const claim = (lane: number, from: number, to: number) => {
    while (taken.length <= lane) taken.push([])
    taken[lane]?.push([from, to])
  }
  const firstFree = (start: number, row: number) => {
    let lane = start
    while (!free(lane, row, row)) lane += 1
    return lane
  }
  const lanes = new Map<string, number>()
  const place = (session: LayoutSession) => {
    const row = rowOf.get(session.id)
    if (row === undefined) return
    const ownerId = forest.owner.get(session.id)
    const ownerLane = ownerId ? lanes.get(ownerId) : undefined
    const ownerRow = ownerId ? rowOf.get(ownerId) : undefined
    if (ownerLane === undefined || ownerRow === undefined) {
      const lane = firstFree(0, row)
      lanes.set(session.id, lane)
      claim(lane, row, row)
      return
    }
    const continues = session.predecessorId === ownerId && session.parentId !== ownerId
    if (continues && free(ownerLane, row, ownerRow - 1)) {
      lanes.set(session.id, ownerLane)
      claim(ownerLane, row, ownerRow - 1)
      return
    }
    const lane = firstFree(ownerLane + 1, row)
    lanes.set(session.id, lane)
    claim(lane, row, row)
  }
  walkOwnersFirst(forest, shown, place)
  return lanes
}

/** Every shown session once, each after its owner: tree by tree, oldest root first, depth first. */
function walkOwnersFirst(forest: Forest, shown: readonly LayoutSession[], visit: (session: LayoutSession) => void): void {
  const isShown = new Set(shown.map((session) => session.id))
  for (const root of forest.roots) {
    const stack = [root.id]
    while (stack.length > 0) {
      const id = stack.pop() as string
      const session = forest.byId.get(id)
      if (!session || !isShown.has(id)) continue
      visit(session)
      const children = forest.children.get(id) ?? []
      for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as string)
    }
  }
}

function edgesOf(forest: Forest, merges: readonly LayoutMerge[], visible: (id: string) => boolean, lanes: ReadonlyMap<string, number>): TreeEdge[] {
  const edges: TreeEdge[] = []
  const seen = new Set<string>()
  const add = (kind: TreeEdgeKind, source: string, target: string, suffix = '', extra: Pick<TreeEdge, 'label' | 'vertical'> = {}) => {
    if (source === target || !visible(source) || !visible(target)) return
    const id = `${kind}:${source}->${target}${suffix}`
    if (seen.has(id)) return
    seen.add(id)
    edges.push({ id, source, target, kind, ...extra })
  }
  for (const session of forest.ordered) {
    const label = session.kind === 'branch' && session.forkTurn != null ? `from turn ${session.forkTurn}` : undefined
    if (session.parentId) add(session.kind === 'sub-agent' ? 'sub-agent' : 'fork', session.parentId, session.id, '', label ? { label } : {})
    if (session.predecessorId) {
      const sameLane = lanes.get(session.predecessorId) === lanes.get(session.id)
      add('successor', session.predecessorId, session.id, '', sameLane ? { vertical: true } : {})
    }
  }
  merges.forEach((merge, index) => add('merge', merge.branchId, merge.intoId, `#${index}`))
  return edges
}

/** How many sub-agents each session started (the sessions that get a fold toggle). */
export function countSubAgents(sessions: readonly LayoutSession[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const session of sessions) {
    if (session.kind === 'sub-agent' && session.parentId) counts.set(session.parentId, (counts.get(session.parentId) ?? 0) + 1)
  }
  return counts
}

/** How many sessions continue each session after a `/clear` (the other sessions that get a fold toggle). */
export function countContinuations(sessions: readonly LayoutSession[]): Map<string, number> {
  const ids = new Set(sessions.map((session) => session.id))
  const counts = new Map<string, number>()
  for (const session of sessions) {
    const from = session.predecessorId
    if (from && from !== session.id && ids.has(from) && !(session.parentId && ids.has(session.parentId))) counts.set(from, (counts.get(from) ?? 0) + 1)
  }
  return counts
}
