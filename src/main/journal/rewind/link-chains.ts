import { lstatSync, readlinkSync } from 'node:fs'
import { foldsCase } from '../../fs/case-folding'
import { displayPath, splitSegments, type RelPath } from '../../fs/paths'

/** Linux follows at most 40 links in one lookup (MAXSYMLINKS): a longer chain resolves nowhere, and is refused as one that might. */
export const MAX_LINKS_FOLLOWED = 40

/** The lookups one link's resolution may make, over all the ways the tree may end up: past that it is refused, not followed further. */
const MAX_STEPS = 4096

/** One way of reading the rest of a lookup: the real folders reached, what is left to resolve, and the links followed on the way. */
interface Walk {
  /** The real path reached, one folder name (latin1 text: lossless) per component. */
  real: string[]
  rest: string[]
  via: string[]
}

const componentsOf = (path: Buffer): string[] => splitSegments(path).map((segment) => segment.toString('latin1'))
const shown = (components: string[]): string => displayPath(Buffer.from(components.join('/'), 'latin1'))
const described = (components: string[], target: Buffer): string => `${shown(components)} → ${JSON.stringify(displayPath(target))}`

/** A target whose text alone is outside: absolute, or a Windows form (a drive, a backslash) that is on a disk that reads it so. */
const isOutsideForm = (text: string): boolean => text.length === 0 || text.startsWith('/') || text.includes('\\') || /^[A-Za-z]:/.test(text)

/**
 * The workspace as a rewind may leave it, for resolving the links it writes. At each path the
 * plan writes, either what the plan puts there (a link, or something that is not one) or, since
 * any item may be skipped or refused, what is there now; everywhere else the disk as it is. A
 * link is resolved as the kernel resolves it, one component at a time: each link met, the
 * plan's or one already on disk, is followed from the folder it is in, and `..` climbs from the
 * real folder reached. So `l2 → .` then `l1 → l2/../outside.txt` is seen to leave the
 * workspace, where the text alone (`outside.txt`) reads as inside. Reads only.
 */
export class PlannedTree {
  private readonly folding: boolean
  /** Each path the plan writes (keyed as the disk compares names), and the link target it puts there (null: not a link). */
  private readonly planned = new Map<string, Buffer | null>()
  /** The disk's link target at a path, or null (not a link, nothing, or behind something that is not a real folder). */
  private readonly diskLinks = new Map<string, Buffer | null>()
  private readonly realFolders = new Map<string, boolean>()

  constructor(
    private readonly root: Buffer,
    planned: Iterable<[RelPath, Buffer | null]>
  ) {
    this.folding = foldsCase(root)
    for (const [path, target] of planned) this.planned.set(this.keyOf(componentsOf(path)), target)
  }

  /**
   * Why a link the plan writes at `path`, pointing to `target`, leads outside the workspace (the
   * words after "it is a link to TARGET"), or null when every way the tree may end up keeps it inside.
   */
  whyLeaves(path: RelPath, target: Buffer): string | null {
    if (isOutsideForm(target.toString('latin1'))) return 'outside the workspace'
    // The link's target, read from the folder the link is in (itself resolved through any link on the way).
    const walks: Walk[] = [{ real: [], rest: [...componentsOf(path).slice(0, -1), ...componentsOf(target)], via: [] }]
    for (let steps = 0; walks.length > 0; steps++) {
      if (steps > MAX_STEPS) return 'whose links have too many ways to resolve for Retrace to prove it stays inside the workspace'
      const walk = walks.pop() as Walk
      const [next, ...rest] = walk.rest
      if (next === undefined) continue // resolved inside
      if (next === '' || next === '.') walks.push({ ...walk, rest })
      else if (next === '..') {
        if (walk.real.length === 0) return walk.via.length === 0 ? 'outside the workspace' : `which leads outside the workspace through ${walk.via.join(', then ')}`
        walks.push({ ...walk, real: walk.real.slice(0, -1), rest })
      } else {
        const here = [...walk.real, next]
        const { links, maybeNotLink } = this.outcomes(here)
        if (maybeNotLink) walks.push({ ...walk, real: here, rest })
        for (const link of links) {
          const via = [...walk.via, described(here, link)]
          if (isOutsideForm(link.toString('latin1'))) return `which leads outside the workspace through ${via.join(', then ')}`
          if (via.length >= MAX_LINKS_FOLLOWED) return `through a chain of more than ${MAX_LINKS_FOLLOWED} links (a loop?), which no system follows and Retrace cannot prove stays inside the workspace`
          walks.push({ real: walk.real, rest: [...componentsOf(link), ...rest], via })
        }
      }
    }
    return null
  }

  /** Where the disk ignores case, so does the lookup. */
  private keyOf(components: string[]): string {
    const key = components.join('/')
    return this.folding ? Buffer.from(key, 'latin1').toString('utf8').normalize('NFC').toLowerCase() : key
  }

  /** What may be at a path once the rewind is done: each link target it may hold, and whether it may hold something else. */
  private outcomes(components: string[]): { links: Buffer[]; maybeNotLink: boolean } {
    const planned = this.planned.get(this.keyOf(components))
    const ways = planned === undefined ? [this.diskLinkAt(components)] : [planned, this.diskLinkAt(components)]
    const links: Buffer[] = []
    for (const way of ways) if (way !== null && !links.some((link) => link.equals(way))) links.push(way)
    return { links, maybeNotLink: ways.includes(null) }
  }

  /** The disk's link at a path, looked at only through real folders: never through a link on the way. */
  private diskLinkAt(components: string[]): Buffer | null {
    const key = components.join('/')
    const known = this.diskLinks.get(key)
    if (known !== undefined) return known
    let target: Buffer | null = null
    if (this.isRealFolder(components.slice(0, -1))) {
      const absolute = this.absolute(components)
      try {
        if (lstatSync(absolute).isSymbolicLink()) target = readlinkSync(absolute, { encoding: 'buffer' })
      } catch {
        // nothing there
      }
    }
    this.diskLinks.set(key, target)
    return target
  }

  private isRealFolder(components: string[]): boolean {
    if (components.length === 0) return true
    const key = components.join('/')
    const known = this.realFolders.get(key)
    if (known !== undefined) return known
    let real = this.isRealFolder(components.slice(0, -1))
    if (real) {
      try {
        real = lstatSync(this.absolute(components)).isDirectory()
      } catch {
        real = false
      }
    }
    this.realFolders.set(key, real)
    return real
  }

  private absolute(components: string[]): Buffer {
    return Buffer.concat([this.root, Buffer.from(`/${components.join('/')}`, 'latin1')])
  }
}
