import { lstatSync, readdirSync, type BigIntStats, type Dirent } from 'node:fs'
import { isVcsMetadataName } from '../../../fs/vcs-metadata.mts'
import { TEMP_PREFIX } from '../../shared-constants.mts'
import { readFile, readLink } from './file-reader.mts'
import { isIgnored, readIgnoreFile, type IgnoreLevel } from './ignore-rules.mts'
import type { ScanScope } from './scan-scope.mts'

interface Dir {
  rel: Buffer
  levels: IgnoreLevel[]
}

const EMPTY = Buffer.alloc(0)
const SLASH = Buffer.from('/')
const GITIGNORE = Buffer.from('.gitignore')
const RETRACE_TEMP = Buffer.from(TEMP_PREFIX)

const child = (parent: Buffer, name: Buffer): Buffer => (parent.length === 0 ? Buffer.from(name) : Buffer.concat([parent, SLASH, name]))
// A rewind's temp and set-aside files, never the user's. Compared in place: asked of every file of the walk, so no slice is allocated for it.
const isRetraceTemp = (name: Buffer): boolean => name.length >= RETRACE_TEMP.length && RETRACE_TEMP.compare(name, 0, RETRACE_TEMP.length) === 0

function describeSpecial(st: BigIntStats): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)'
  if (st.isSocket()) return 'a socket'
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file'
  return 'not a regular file, link or folder'
}

/** Record one non-folder entry: unchanged since the previous scan, or read. Returns false once `maxFiles` is reached. */
async function visit(scope: ScanScope, rel: Buffer): Promise<boolean> {
  const { counts, input } = scope
  scope.control.tick()
  const key = rel.toString('latin1')
  const st = scope.guarded(key, false, () => lstatSync(scope.abs(rel), { bigint: true }))
  if (st === null) return true
  const kind = st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : null
  if (kind === null) {
    counts.filesSeen++
    scope.skip(key, st.isDirectory() ? 'it changed type while being scanned' : `it is ${describeSpecial(st)}, which Retrace does not record`)
    return true
  }
  if (scope.batches.recorded >= input.maxFiles) return false
  counts.filesSeen++
  if (kind === 'file' && st.size > BigInt(input.maxFileBytes)) {
    scope.skip(key, scope.tooLarge(Number(st.size)))
    return true
  }
  const hit = scope.previous.hit(key, kind, st, Number(st.mode & 0o7777n))
  if (hit >= 0) {
    counts.reusedFromCache++
    scope.batches.recordCached(hit)
    return true
  }
  const file = kind === 'symlink' ? await readLink(scope, rel, key, st) : await readFile(scope, rel, key)
  if (file) {
    counts.filesHashed++
    scope.batches.record(file)
  }
  return true
}

function listDir(scope: ScanScope, rel: Buffer): Dirent<Buffer>[] | null {
  const entries = scope.guarded(rel.toString('latin1'), true, () => readdirSync(scope.abs(rel), { encoding: 'buffer', withFileTypes: true }))
  return entries ? entries.sort((a, b) => Buffer.compare(a.name, b.name)) : null
}

/** Depth-first in byte order (deterministic, so a truncated scan is repeatable). Returns false if truncated. */
export async function walk(scope: ScanScope): Promise<boolean> {
  const exclude = readIgnoreFile(EMPTY, Buffer.concat([scope.root, Buffer.from('/.git/info/exclude')]))
  const stack: Dir[] = [{ rel: EMPTY, levels: exclude ? [exclude] : [] }]
  for (let dir = stack.pop(); dir; dir = stack.pop()) {
    const entries = listDir(scope, dir.rel)
    if (!entries) continue
    // Only a regular file: like git (2.32+), a .gitignore that is a symlink is not followed.
    const own = entries.find((entry) => entry.isFile() && entry.name.equals(GITIGNORE))
    const level = own ? readIgnoreFile(dir.rel, scope.abs(child(dir.rel, own.name))) : null
    const levels = level ? [...dir.levels, level] : dir.levels
    const subdirs: Dir[] = []
    for (const entry of entries) {
      if (isVcsMetadataName(entry.name)) continue // .git, .hg, .svn…, any case, file or folder: never read (R19)
      const isDir = entry.isDirectory()
      if (!isDir && isRetraceTemp(entry.name)) continue // a rewind under way, or one whose set-aside files are still being removed
      const rel = child(dir.rel, entry.name)
      if (isIgnored(levels, rel, isDir)) continue
      if (isDir) subdirs.push({ rel, levels })
      else if (!(await visit(scope, rel))) return false
      if (scope.batches.handOverDue) await scope.batches.flush()
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as Dir)
  }
  return true
}
