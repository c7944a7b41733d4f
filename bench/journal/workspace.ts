import { createHash } from 'node:crypto'
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRng, type Rng } from '../lib/prng'
import { randomBytes, structuredBytes, TextFactory, type ContentKind } from './content'

// The generated workspace: nested folders, files of three kinds whose sizes are spread over two
// orders of magnitude (log-uniform) and then scaled so each kind has its share of the total.
// A few files land above Retrace's 256 KB inline limit, so both blob paths are exercised.

export interface WorkspaceFile {
  /** Relative to the workspace root, `/`-separated. */
  path: string
  kind: ContentKind
  size: number
  /** sha256 of the generated (pristine) content: what every rewind must put back. */
  sha256: string
}

export interface Workspace {
  root: string
  files: WorkspaceFile[]
  bytes: number
}

interface KindPlan {
  kind: ContentKind
  /** Share of the files, and of the bytes. */
  files: number
  bytes: number
  /** Log-uniform size range before scaling. */
  min: number
  max: number
  extensions: string[]
}

const KINDS: KindPlan[] = [
  { kind: 'text', files: 0.8, bytes: 0.35, min: 400, max: 40_000, extensions: ['ts', 'ts', 'js', 'py', 'md', 'json', 'css', 'go', 'sh'] },
  { kind: 'structured', files: 0.12, bytes: 0.3, min: 2_000, max: 400_000, extensions: ['db', 'idx', 'dat', 'bin'] },
  { kind: 'random', files: 0.08, bytes: 0.35, min: 4_000, max: 2_000_000, extensions: ['png', 'jpg', 'woff2', 'gz', 'zip'] }
]
const TOP_FOLDERS = ['src', 'lib', 'test', 'docs', 'assets', 'data', 'vendor', 'tools', 'packages']
const FILES_PER_FOLDER = 30
const MAX_DEPTH = 5
/** Below this a binary edit (64 bytes) would rewrite most of the file. */
const MIN_SIZE = 256

export const sha256 = (content: Buffer): string => createHash('sha256').update(content).digest('hex')

export function generateWorkspace(root: string, options: { seed: number; files: number; bytes: number }): Workspace {
  const rng = createRng(options.seed)
  const text = new TextFactory(options.seed, createRng(options.seed + 1))
  const folders = makeFolders(rng, text, Math.max(TOP_FOLDERS.length, Math.round(options.files / FILES_PER_FOLDER)))
  const specs = planFiles(rng, folders, options)
  mkdirSync(root, { recursive: true })
  for (const folder of folders) mkdirSync(join(root, folder), { recursive: true })
  const files: WorkspaceFile[] = []
  for (const [index, spec] of specs.entries()) {
    const content = spec.kind === 'text' ? text.source(rng, spec.path, spec.size) : spec.kind === 'structured' ? structuredBytes(rng, spec.size) : randomBytes(`${options.seed}:${index}`, spec.size)
    writeFileSync(join(root, spec.path), content)
    if (spec.path.endsWith('.sh')) chmodSync(join(root, spec.path), 0o755)
    files.push({ ...spec, size: content.length, sha256: sha256(content) })
  }
  return { root, files, bytes: files.reduce((sum, file) => sum + file.size, 0) }
}

/**
 * The same files (bytes and modes) under `root`: git's copy. Each side rewinds its own copy, so
 * neither finds its files rewritten by the bench since its own capture, which a rewind right
 * after an agent's turn never does (Retrace would then have to hash them again: its stat cache
 * no longer vouches for them).
 */
export function copyWorkspace(workspace: Workspace, root: string): Workspace {
  cpSync(workspace.root, root, { recursive: true, preserveTimestamps: true })
  return { ...workspace, root }
}

/** Read every file once so both sides start from a warm page cache (generation wrote them, but say it explicitly). */
export function warmPageCache(workspace: Workspace): void {
  for (const file of workspace.files) readFileSync(join(workspace.root, file.path))
}

/** A folder tree of `count` folders, at most MAX_DEPTH deep, grown by attaching each new folder to a random existing one. */
function makeFolders(rng: Rng, text: TextFactory, count: number): string[] {
  const folders = [...TOP_FOLDERS]
  const taken = new Set(folders)
  while (folders.length < count) {
    const parent = rng.pick(folders)
    if (parent.split('/').length >= MAX_DEPTH) continue
    const name = `${parent}/${text.name(rng)}`
    if (taken.has(name)) continue
    taken.add(name)
    folders.push(name)
  }
  return folders
}

function planFiles(rng: Rng, folders: string[], options: { files: number; bytes: number }): Omit<WorkspaceFile, 'sha256'>[] {
  const specs: Omit<WorkspaceFile, 'sha256'>[] = []
  let remaining = options.files
  for (const [i, plan] of KINDS.entries()) {
    const count = i === KINDS.length - 1 ? remaining : Math.round(options.files * plan.files)
    remaining -= count
    const raw = Array.from({ length: count }, () => Math.exp(Math.log(plan.min) + rng.next() * Math.log(plan.max / plan.min)))
    const scale = (options.bytes * plan.bytes) / raw.reduce((sum, size) => sum + size, 0)
    for (const size of raw) {
      const path = `${rng.pick(folders)}/${plan.kind[0]}${specs.length}.${rng.pick(plan.extensions)}`
      specs.push({ path, kind: plan.kind, size: Math.max(MIN_SIZE, Math.round(size * scale)) })
    }
  }
  // Interleave the kinds in folders and on disk, as in a real tree.
  return shuffle(rng, specs)
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[items[i], items[j]] = [items[j] as T, items[i] as T]
  }
  return items
}
