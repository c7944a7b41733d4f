import { hierarchy, tree as tidyTree } from 'd3-hierarchy'
import type { TreeMerge } from '../../../../shared/contract'
import { buildForest, compare, depths, hiddenByCollapse, type LayoutSession } from './forest'
import { packBoxes } from './pack'

export type { LayoutSession } from './forest'
export type LayoutMerge = Pick<TreeMerge, 'branchId' | 'intoId'>

export type TreeEdgeKind = 'fork' | 'sub-agent' | 'successor' | 'merge'

export interface PlacedNode {
  id: string
  /** Top-left corner, in graph pixels. */
  x: number
  y: number
  width: number
  height: number
  /** Sessions hidden because this node's sub-agents are collapsed (with everything under them). */
  hiddenChildren: number
}

export interface TreeEdge {
  id: string
  source: string
  target: string
  kind: TreeEdgeKind
  /** The parent's turn a branch goes another way from ("from turn 3", as its card says), when known. */
  label?: string
}

export interface TreeLayout {
  nodes: PlacedNode[]
  edges: TreeEdge[]
}

export interface LayoutOptions {
  /** Sessions whose sub-agents are collapsed. */
  collapsed: ReadonlySet<string>
}

export const NODE_WIDTH = 280
export const NODE_HEIGHT = 84

/**
 * Merges run backwards, from a branch to the session left of it, so they leave the branch's left
 * side and enter the parent's right side, low on both: the whole curve stays in the gap between
 * the two columns, where no card is, below the fork edge that goes the other way.
 */
export const MERGE_ANCHOR = 0.8
const NODE_GAP = 20
/**
 * Between columns: room for a fork edge's label ("from turn 99": 12 px semi-bold, about 85 px
 * with its padding) in the middle of the gap, clear of both cards.
 */
export const RANK_GAP = 96
const COMPONENT_GAP = 48
/** Ranks per laid-out tree: a longer chain goes on as a new tree in the next row. */
const MAX_RANKS = 12

/**
 * Lay out a workspace's sessions as a forest, left to right: a session's forks, sub-agents
 * and successors sit in the column to its right, so reading rightwards follows time, and
 * siblings stack vertically, which keeps wide title cards compact. Each session hangs off one
 * owner (its parent, else its predecessor); each tree is laid out as a tidy tree on its own (a
 * chain longer than MAX_RANKS goes on as a further tree) and the trees are packed in reading
 * order, newest first, so 2,000 mostly unrelated sessions fill a block instead of a 2,000-node
 * column. Links that are not the owner link (a
 * successor that also has a parent) and merges are drawn, not laid out.
 *
 * Pure: same input, same output; nothing here touches React or the DOM. `planLayout`,
 * `layoutOneTree` and `placeTrees` are its three steps, for callers that cache or spread the
 * per-tree work (use-tree-layout.ts).
 */
export function layoutTree(sessions: readonly LayoutSession[], merges: readonly LayoutMerge[], options: LayoutOptions): TreeLayout {
  const plan = planLayout(sessions, merges, options)
  return placeTrees(plan, plan.trees.map(layoutOneTree))
}

/** One tree to lay out: its members (breadth first), links, and sibling order. */
export interface TreeToLayOut {
  /** Same key, same layout: callers may cache `layoutOneTree` results by it. */
  key: string
  members: string[]
  links: [string, string][]
}

/** Everything about a layout except the (costly) per-tree positions. */
export interface LayoutPlan {
  /** In packing order: newest first, a long chain's parts in order. */
  trees: TreeToLayOut[]
  hiddenCount: ReadonlyMap<string, number>
  edges: TreeEdge[]
}

export interface LaidOutTree {
  width: number
  height: number
  /** Positions relative to the tree's own top-left corner. */
  nodes: Omit<PlacedNode, 'hiddenChildren'>[]
}

/** Which trees to lay out, what collapsing hides, and which edges to draw (linear time). */
export function planLayout(sessions: readonly LayoutSession[], merges: readonly LayoutMerge[], options: LayoutOptions): LayoutPlan {
  const forest = buildForest(sessions)
  const { hiddenBy, hiddenCount } = hiddenByCollapse(forest, options.collapsed)
  const where = depths(forest)

  // The trees to lay out: every visible root, and a fresh start every MAX_RANKS ranks down a
  // long chain (a chain a mile wide is unreadable).
  const starts: { id: string; root: string; part: number }[] = []
  const children = new Map<string, string[]>()
  for (const session of forest.ordered) {
    if (hiddenBy.has(session.id)) continue
    const place = where.get(session.id) ?? { depth: 0, root: session.id }
    const owner = forest.owner.get(session.id)
    if (!owner || place.depth % MAX_RANKS === 0) starts.push({ id: session.id, root: place.root, part: Math.floor(place.depth / MAX_RANKS) })
    else push(children, owner, session.id)
  }
  // Newest trees first, like the session list. Creation (not activity) time, so a live
  // session's new messages never make the graph jump.
  const createdAt = (id: string) => forest.byId.get(id)?.createdAt ?? 0
  starts.sort((a, b) => createdAt(b.root) - createdAt(a.root) || compare(a.root, b.root) || a.part - b.part)

  const visible = (id: string) => forest.byId.has(id) && !hiddenBy.has(id)
  const edges: TreeEdge[] = []
  const seen = new Set<string>()
  const add = (kind: TreeEdgeKind, source: string, target: string, suffix = '', label?: string) => {
    if (source === target || !visible(source) || !visible(target)) return
    const id = `${kind}:${source}->${target}${suffix}`
    if (seen.has(id)) return
    seen.add(id)
    edges.push({ id, source, target, kind, ...(label ? { label } : {}) })
  }
  for (const session of forest.ordered) {
    const label = session.kind === 'branch' && session.forkTurn != null ? `from turn ${session.forkTurn}` : undefined
    if (session.parentId) add(session.kind === 'sub-agent' ? 'sub-agent' : 'fork', session.parentId, session.id, '', label)
    if (session.predecessorId) add('successor', session.predecessorId, session.id)
  }
  merges.forEach((merge, index) => add('merge', merge.branchId, merge.intoId, `#${index}`))
  return { trees: starts.map((start) => treeFrom(start.id, children)), hiddenCount, edges }
}

function treeFrom(rootId: string, children: ReadonlyMap<string, readonly string[]>): TreeToLayOut {
  const members = [rootId]
  const links: [string, string][] = []
  for (let index = 0; index < members.length; index += 1) {
    const id = members[index] as string
    for (const childId of children.get(id) ?? []) {
      links.push([id, childId])
      members.push(childId)
    }
  }
  return { key: `${rootId}|${links.map(([from, to]) => `${from}>${to}`).join(',')}`, members, links }
}

/** Positions for a list of laid-out trees, packed, with the collapse counts. */
export function placeTrees(plan: LayoutPlan, trees: readonly LaidOutTree[]): TreeLayout {
  const nodes = pack(trees).map((node) => ({ ...node, hiddenChildren: plan.hiddenCount.get(node.id) ?? 0 }))
  return { nodes, edges: plan.edges }
}

/** How many sub-agents each session started (the sessions that get a collapse toggle). */
export function countSubAgents(sessions: readonly LayoutSession[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const session of sessions) {
    if (session.kind === 'sub-agent' && session.parentId) counts.set(session.parentId, (counts.get(session.parentId) ?? 0) + 1)
  }
  return counts
}

/**
 * One tree laid out as a tidy tree (Reingold–Tilford, linear time, d3-hierarchy), ranks left
 * to right: each session one column right of its owner, siblings stacked oldest on top, a
 * parent centred on its children, subtrees as close as they can be without overlapping. What
 * is laid out here is always a tree (merges and second links are drawn, not laid out), for
 * which this is the picture a layered layout such as dagre converges to, at a fraction of the
 * cost: dagre's layout was most of the time a graph of thousands of sessions took to open.
 */
export function layoutOneTree(tree: TreeToLayOut): LaidOutTree {
  const { members, links } = tree
  const rootId = members[0] as string
  if (members.length === 1) return { width: NODE_WIDTH, height: NODE_HEIGHT, nodes: [{ id: rootId, x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEIGHT }] }

  // Members are breadth first with each parent's children oldest first: `links` keeps that order.
  const childrenOf = new Map<string, string[]>()
  for (const [parent, child] of links) push(childrenOf, parent, child)
  const root = hierarchy<string>(rootId, (id) => childrenOf.get(id))
  // d3 lays trees out top-down: its x runs across siblings (our y), its y down the ranks (our x).
  tidyTree<string>()
    .nodeSize([NODE_HEIGHT + NODE_GAP, NODE_WIDTH + RANK_GAP])
    .separation(() => 1)(root)
  let minY = Infinity
  root.each((node) => {
    minY = Math.min(minY, node.x ?? 0)
  })
  const placed: LaidOutTree['nodes'] = []
  let width = 0
  let height = 0
  root.each((node) => {
    const placedNode = { id: node.data, x: node.y ?? 0, y: (node.x ?? 0) - minY, width: NODE_WIDTH, height: NODE_HEIGHT }
    width = Math.max(width, placedNode.x + NODE_WIDTH)
    height = Math.max(height, placedNode.y + NODE_HEIGHT)
    placed.push(placedNode)
  })
  return { width, height, nodes: placed }
}

/** Trees packed in reading order (see packBoxes), their nodes moved with them. */
function pack(trees: readonly LaidOutTree[]): Omit<PlacedNode, 'hiddenChildren'>[] {
  const corners = packBoxes(trees, COMPONENT_GAP)
  return trees.flatMap((tree, index) => {
    const { x, y } = corners[index] ?? { x: 0, y: 0 }
    return tree.nodes.map((node) => ({ ...node, x: node.x + x, y: node.y + y }))
  })
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
