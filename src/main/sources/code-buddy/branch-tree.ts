import type { BranchFile, ChatMessage } from './branch-file'

/** A branch's place under its parent: how many of the parent's first messages it shares. */
export interface BranchLink {
  parent: BranchFile
  shared: number
}

/**
 * A merge Code Buddy made, found in the messages: `merge()` leaves no record of itself, it only
 * rewrites the target's messages (and `updatedAt`). The branch's `count` messages since its fork
 * are the target's last ones, from `start` on.
 */
export interface InferredMerge {
  source: BranchFile
  target: BranchFile
  mode: 'append' | 'replace'
  start: number
  count: number
}

export interface BranchTree {
  /** Parents before their branches (the importer needs a parent's messages to find a fork point). */
  ordered: BranchFile[]
  /** Branch id → its parent; roots have none. */
  links: Map<string, BranchLink>
  merges: InferredMerge[]
  problems: string[]
}

/**
 * The branches of one folder as a tree, as Code Buddy's `getBranchTree` draws it: a branch whose
 * parent is missing is a root. Code Buddy trusts the files; here a fork index that is not a
 * position in the parent, or parents that form a cycle (its `getBranchHistory` would loop
 * forever), are reported and those branches shown as roots, so nothing slices out of range.
 */
export function branchTree(files: BranchFile[]): BranchTree {
  const problems: string[] = []
  const byId = new Map<string, BranchFile>()
  for (const file of files) {
    if (byId.has(file.id)) problems.push(`${file.label}: another file of the folder already has the id "${file.id}"; not imported`)
    else byId.set(file.id, file)
  }
  const links = new Map<string, BranchLink>()
  for (const branch of byId.values()) {
    if (branch.parentId === undefined) continue
    const parent = byId.get(branch.parentId)
    if (!parent || parent === branch) {
      problems.push(`${branch.label}: its parent branch "${branch.parentId}" ${parent ? 'is itself' : 'does not exist'}; shown as a root`)
      continue
    }
    const index = branch.parentMessageIndex
    // parentMessageIndex = how many of the parent's messages the fork copied (0 … the parent's length).
    if (index !== undefined && !(typeof index === 'number' && Number.isInteger(index) && index >= 0 && index <= parent.messages.length)) {
      problems.push(`${branch.label}: its fork index ${JSON.stringify(index)} is not a position in "${parent.id}" (${parent.messages.length} messages); shown as a root`)
      continue
    }
    // The copy may have been rewritten since (setMessages): the fork point is where they still agree.
    const limit = typeof index === 'number' ? index : Math.min(parent.messages.length, branch.messages.length)
    links.set(branch.id, { parent, shared: sharedPrefix(parent.messages, branch.messages, limit) })
  }
  for (const cycle of parentCycles(byId, links)) {
    const folder = cycle[0]?.label.replace(/\/[^/]*$/, '') ?? 'branches'
    const names = [...cycle, cycle[0]].map((branch) => branch?.id).join(' → ')
    problems.push(`${folder}: the parents of ${cycle.length} branches form a cycle (${names}); each shown as a root`)
    for (const branch of cycle) links.delete(branch.id)
  }
  const depth = (branch: BranchFile): number => {
    let count = 0
    for (let link = links.get(branch.id); link; link = links.get(link.parent.id)) count += 1
    return count
  }
  const ordered = [...byId.values()].sort((a, b) => depth(a) - depth(b) || (a.createdAt ?? 0) - (b.createdAt ?? 0) || a.id.localeCompare(b.id))
  return { ordered, links, merges: inferMerges(byId, links), problems }
}

function sharedPrefix(a: ChatMessage[], b: ChatMessage[], limit: number): number {
  let shared = 0
  while (shared < limit && shared < a.length && shared < b.length && a[shared]?.raw === b[shared]?.raw) shared += 1
  return shared
}

/** Each cycle of parent links once, in walking order. */
function parentCycles(byId: Map<string, BranchFile>, links: Map<string, BranchLink>): BranchFile[][] {
  const cycles: BranchFile[][] = []
  const done = new Set<string>()
  for (const start of byId.values()) {
    const path: BranchFile[] = []
    const onPath = new Map<string, number>()
    let at: BranchFile | undefined = start
    while (at && !done.has(at.id)) {
      const seenAt = onPath.get(at.id)
      if (seenAt !== undefined) {
        cycles.push(path.slice(seenAt))
        break
      }
      onPath.set(at.id, path.length)
      path.push(at)
      at = links.get(at.id)?.parent
    }
    for (const branch of path) done.add(branch.id)
  }
  return cycles
}

/**
 * Merges, from what `merge(source, strategy)` leaves behind (into the branch's parent, the only
 * merge Retrace draws): the target ends with the source's messages since its fork, and was
 * updated after the source. `replace` makes the target a copy of the source; `append` keeps the
 * target's own messages since the fork before them.
 */
function inferMerges(byId: Map<string, BranchFile>, links: Map<string, BranchLink>): InferredMerge[] {
  const candidates: InferredMerge[] = []
  for (const [id, link] of links) {
    const source = byId.get(id)
    const target = link.parent
    if (!source) continue
    const count = source.messages.length - link.shared
    const start = target.messages.length - count
    if (count <= 0 || start < link.shared) continue
    if (source.updatedAt === undefined || target.updatedAt === undefined || target.updatedAt <= source.updatedAt) continue
    const tail = target.messages.slice(start)
    if (!tail.every((message, offset) => message.raw === source.messages[link.shared + offset]?.raw)) continue
    candidates.push({ source, target, mode: start === link.shared ? 'replace' : 'append', start, count })
  }
  // Two branches cannot both end the target: the one updated last is the merge.
  const accepted: InferredMerge[] = []
  for (const merge of candidates.sort((a, b) => (b.source.updatedAt ?? 0) - (a.source.updatedAt ?? 0))) {
    if (!accepted.some((other) => other.target === merge.target)) accepted.push(merge)
  }
  return accepted
}
