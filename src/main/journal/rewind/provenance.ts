import { posix } from 'node:path'
import type { BlobStore } from '../blob-store'
import type { FileVersion } from '../../store/repositories/journal'
import { displayPath, keyOf, type PathKey, type RelPath } from '../../fs/paths'
import type { ScannedFile } from '../scan/types'
import type { PathTarget } from './path-target'
import { sensitiveReason } from './sensitive-paths'

/**
 * Where a version a rewind would restore comes from. A history is the word of whoever wrote it:
 * an agent's transcript, an imported export, anything this machine did not watch happen. What
 * this machine saw itself is different: the versions its own workspace scans recorded (the
 * last scan's `file_states`, and the captures of sessions it recorded, see
 * `SOURCES_RECORDED_HERE`) and what its own rewinds found on the disk. Only a version seen here
 * (path, kind, content and, for a file, exact mode) is trusted as it is. Any other is foreign:
 * its mode loses setuid, setgid and sticky; a link of it that leaves the workspace is refused;
 * and a file that runs code or grants access (sensitive-paths.ts) is only written after the
 * user confirms it by name.
 *
 * `observed` alone cannot say it: an import-json export keeps the `observed` its author wrote,
 * so "scan" is believed only in sessions this machine recorded.
 */
export const SOURCES_RECORDED_HERE = ['native', 'hooks'] as const

/** What a plan does with one target because of where it comes from. */
export interface Vetted {
  /** The version to restore: the target, with a foreign file's mode masked to 0o777. */
  target: FileVersion | null
  /** A link's target, as stored (null for a file or when its snapshot is missing). */
  linkTarget: Buffer | null
  /** A foreign link that would point out of the workspace: never restored. */
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
}

const versionKey = (path: RelPath, version: FileVersion): string =>
  `${keyOf(path)}\0${version.kind}\0${version.hash}\0${version.kind === 'file' ? version.mode & 0o7777 : ''}`

/**
 * Vet every target. Only targets where the answer matters are looked up (a mode beyond 0o777, a
 * link leaving the workspace, a sensitive path): for the ordinary file of an ordinary rewind,
 * foreign or not, nothing changes, and no query runs.
 */
export function vetTargets(targets: PathTarget[], context: VetContext): Map<PathKey, Vetted> {
  const vetted = new Map<PathKey, Vetted>()
  const risky: { target: PathTarget; version: FileVersion; risks: Risks }[] = []
  for (const target of targets) {
    const version = target.target
    const result: Vetted = { target: version, linkTarget: null, refused: null, needsConfirmation: null }
    vetted.set(keyOf(target.path), result)
    if (version === null) continue
    if (version.kind === 'symlink' && !context.unavailable.has(version.hash)) result.linkTarget = context.blobs.read(version.hash)
    const risks: Risks = {
      specialMode: version.kind === 'file' && (version.mode & ~0o777) !== 0,
      escapes: result.linkTarget !== null && leavesWorkspace(target.path, result.linkTarget),
      sensitive: sensitiveReason(target.path)
    }
    if (risks.specialMode || risks.escapes || risks.sensitive) risky.push({ target, version, risks })
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
    if (risks.specialMode) result.target = { ...version, mode: version.mode & 0o777 }
    if (risks.escapes) {
      result.refused = `it is a link to ${JSON.stringify(displayPath(result.linkTarget as Buffer))}, outside the workspace, from a history this computer did not record; Retrace restores such links only when its own scan saw them`
    }
    result.needsConfirmation = risks.sensitive
  }
  return vetted
}

interface Risks {
  specialMode: boolean
  escapes: boolean
  sensitive: string | null
}

/**
 * Whether a link at `path` pointing to `target` resolves outside the workspace, read as the
 * link's folder joined with its target: absolute, climbing out with `..`, or a Windows form
 * (drive letter, backslash) that could on a disk that reads it so.
 */
export function leavesWorkspace(path: RelPath, target: Buffer): boolean {
  const text = target.toString('latin1')
  if (text.length === 0 || text.startsWith('/') || text.includes('\\') || /^[A-Za-z]:/.test(text)) return true
  const folder = posix.dirname(path.toString('latin1'))
  const resolved = posix.normalize(posix.join(folder, text))
  return resolved === '..' || resolved.startsWith('../')
}
