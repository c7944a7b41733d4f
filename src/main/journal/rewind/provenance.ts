import type { BlobStore } from '../blob-store'
import type { FileVersion } from '../../store/repositories/journal'
import { displayPath, keyOf, type PathKey, type RelPath } from '../../fs/paths'
import type { ScannedFile } from '../scan/types'
import { PlannedTree } from './link-chains'
import type { PathTarget } from './path-target'
import { sensitiveReason } from './sensitive-paths'

/**
 * Where a version a rewind would restore comes from. A history is the word of whoever wrote it:
 * an agent's transcript, an imported export, anything this machine did not watch happen. What
 * this machine saw itself is different: the versions its own workspace scans recorded (the
 * last scan's `file_states`, and the captures of sessions it recorded, see
 * `SOURCES_RECORDED_HERE`) and what its own rewinds found on the disk. Only a version seen here
 * (path, kind, content and, for a file, exact mode) is trusted as it is. Any other is foreign:
 * its mode loses setuid, setgid, sticky and write for others (FOREIGN_MODE_BITS); a link of it
 * that leads out of the workspace, by its text or through other links (link-chains.ts), is
 * refused; and a file that runs code, grants access or configures an agent (sensitive-paths.ts)
 * is only written after the person confirms it by name.
 *
 * `observed` alone cannot say it: an import-json export keeps the `observed` its author wrote,
 * so "scan" is believed only in sessions this machine recorded.
 */
export const SOURCES_RECORDED_HERE = ['native', 'hooks'] as const

/** The permission bits a foreign file keeps: none of setuid, setgid, sticky, nor write for everyone (0o777 becomes 0o775). */
export const FOREIGN_MODE_BITS = 0o775

/** What a plan does with one target because of where it comes from. */
export interface Vetted {
  /** The version to restore: the target, with a foreign file's mode masked to FOREIGN_MODE_BITS. */
  target: FileVersion | null
  /** A link's target, as stored (null for a file or when its snapshot is missing). */
  linkTarget: Buffer | null
  /** A foreign link that would lead out of the workspace: never restored. */
  refused: string | null
  /** A foreign file that runs code or grants access: written only once the user confirms it. */
  needsConfirmation: string | null
}

export interface VetContext {
  blobs: BlobStore
  /** The last scan of the target paths (`file_states`). */
  scanned?: Map<PathKey, ScannedFile>
  /** Target hashes whose snapshot is missing (the plan refuses those anyway). */
  unavailable: Set<string>
  /** The versions of `paths` this machine's own scans and rewinds saw (see versionsSeenHere). */
  seenHere: (paths: RelPath[]) => { path: RelPath; version: FileVersion }[]
  /** The workspace folder (real path): links are resolved against what it holds and what the plan writes. */
  root: Buffer
}

const versionKey = (path: RelPath, version: FileVersion): string =>
  `${keyOf(path)}\0${version.kind}\0${version.hash}\0${version.kind === 'file' ? version.mode & 0o7777 : ''}`

/**
 * Vet every target. Only targets where the answer matters are looked up (a mode beyond
 * FOREIGN_MODE_BITS, a link leaving the workspace, a sensitive path): for the ordinary file of an
 * ordinary rewind, foreign or not, nothing changes, and no query runs.
 */
export function vetTargets(targets: PathTarget[], context: VetContext): Map<PathKey, Vetted> {
  const vetted = new Map<PathKey, Vetted>()
  for (const { path, target: version } of targets) {
    const linkTarget = version?.kind === 'symlink' && !context.unavailable.has(version.hash) ? context.blobs.read(version.hash) : null
    vetted.set(keyOf(path), { target: version, linkTarget, refused: null, needsConfirmation: null })
  }
  const linkOf = (path: RelPath) => vetted.get(keyOf(path))?.linkTarget ?? null
  const tree = targets.some((target) => linkOf(target.path)) ? new PlannedTree(context.root, targets.map((target) => [target.path, linkOf(target.path)])) : null

  const risky: { target: PathTarget; version: FileVersion; risks: Risks }[] = []
  for (const target of targets) {
    const version = target.target
    if (version === null) continue
    const linkTarget = linkOf(target.path)
    const risks: Risks = {
      specialMode: version.kind === 'file' && (version.mode & ~FOREIGN_MODE_BITS) !== 0,
      leaves: linkTarget && tree ? tree.whyLeaves(target.path, linkTarget) : null,
      sensitive: sensitiveReason(target.path)
    }
    if (risks.specialMode || risks.leaves || risks.sensitive) risky.push({ target, version, risks })
  }
  if (risky.length === 0) return vetted

  const seen = new Set<string>()
  for (const { target } of risky) {
    const scan = context.scanned?.get(keyOf(target.path))
    if (scan) seen.add(versionKey(scan.path, scan))
  }
  const unknown = risky.filter(({ target, version }) => !seen.has(versionKey(target.path, version)))
  if (unknown.length > 0) for (const { path, version } of context.seenHere(unknown.map(({ target }) => target.path))) seen.add(versionKey(path, version))

  for (const { target, version, risks } of risky) {
    if (seen.has(versionKey(target.path, version))) continue
    const result = vetted.get(keyOf(target.path)) as Vetted
    if (risks.specialMode) result.target = { ...version, mode: version.mode & FOREIGN_MODE_BITS }
    if (risks.leaves) {
      result.refused = `it is a link to ${JSON.stringify(displayPath(result.linkTarget as Buffer))}, ${risks.leaves}, from a history this computer did not record; Retrace restores such links only when its own scan saw them`
    }
    result.needsConfirmation = risks.sensitive
  }
  return vetted
}

interface Risks {
  specialMode: boolean
  /** Why the link leads out of the workspace (link-chains.ts), or null. */
  leaves: string | null
  sensitive: string | null
}
