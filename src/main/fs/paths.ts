import { RetraceError } from '../../shared/contract'
import { isVcsMetadataName } from './vcs-metadata.mts'

/**
 * A workspace-relative path as raw bytes ('/'-separated). File names on Linux are bytes, not
 * text: keeping the bytes is what lets a non-UTF-8 name round-trip through the journal.
 */
export type RelPath = Buffer & { readonly __relPath: unique symbol }

/** A RelPath as a lossless string key (one char per byte) for Maps and Sets. */
export type PathKey = string & { readonly __pathKey: unique symbol }

export const keyOf = (path: Buffer): PathKey => path.toString('latin1') as PathKey
export const pathOfKey = (key: PathKey): RelPath => Buffer.from(key, 'latin1') as RelPath

/** For people: UTF-8 where the bytes are UTF-8, U+FFFD where they are not. */
export const displayPath = (path: Buffer | PathKey): string =>
  (typeof path === 'string' ? Buffer.from(path, 'latin1') : path).toString('utf8')

const SLASH = 0x2f
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i

/**
 * Accept a workspace-relative path only if it can name nothing outside the workspace and
 * nothing Retrace must never touch. Refused everywhere: empty, longer than 4096 bytes, absolute,
 * drive letters and UNC, backslashes (a separator where Windows reads the path), NUL, `.` and
 * `..` segments, and any segment of version-control metadata (`.git`, `.hg`, `.svn`…, any case:
 * vcs-metadata.mts).
 *
 * On Windows also the names Windows cannot hold: device names (`con`, `aux.ts`, `nul.txt`…) and
 * a segment ending with a dot or a space (Windows drops them, so `a.` would be `a`). Elsewhere
 * those are ordinary names (Linux and macOS store `aux.ts` as it is), so they are captured and
 * rewound like any other file; a journal made elsewhere is checked again where it is rewound.
 */
export function checkRelPath(input: Buffer | string, platform: NodeJS.Platform = process.platform): RelPath {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input
  const problem = relPathProblem(bytes, platform)
  if (problem) throw new RetraceError('VALIDATION', `Refused the path ${JSON.stringify(displayPath(bytes))}: ${problem}. Nothing was read or written.`)
  return bytes as RelPath
}

/** Why checkRelPath refuses a path ("it contains a backslash"), or null. */
export function relPathProblem(bytes: Buffer, platform: NodeJS.Platform = process.platform): string | null {
  if (bytes.length === 0) return 'it is empty'
  if (bytes.length > 4096) return 'it is longer than 4096 bytes'
  if (bytes.includes(0)) return 'it contains a NUL byte'
  if (bytes.includes(0x5c)) return 'it contains a backslash'
  if (bytes[0] === SLASH) return 'it is absolute'
  if (/^[a-zA-Z]:/.test(bytes.subarray(0, 2).toString('latin1'))) return 'it starts with a drive letter'
  const windows = platform === 'win32'
  for (const segment of splitSegments(bytes)) {
    const name = segment.toString('latin1')
    if (name === '') return 'it has an empty segment'
    if (name === '.' || name === '..') return `it has a "${name}" segment`
    if (isVcsMetadataName(name)) return `it names ${displayPath(segment)}, version-control metadata that Retrace never touches`
    if (windows && /[. ]$/.test(name)) return 'a segment ends with a dot or a space, which Windows drops'
    if (windows && WINDOWS_RESERVED.test(name)) return 'a segment is a device name Windows reserves'
  }
  return null
}

export function splitSegments(path: Buffer): Buffer[] {
  const segments: Buffer[] = []
  let start = 0
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path[i] === SLASH) {
      segments.push(path.subarray(start, i))
      start = i + 1
    }
  }
  return segments
}

export function joinRel(parent: Buffer, name: Buffer): RelPath {
  return (parent.length === 0 ? Buffer.from(name) : Buffer.concat([parent, Buffer.from([SLASH]), name])) as RelPath
}

/** Case-insensitive identity of a path, for detecting collisions on case-insensitive disks. */
export function caseFoldKey(path: Buffer): string {
  return path.toString('utf8').normalize('NFC').toLowerCase()
}
