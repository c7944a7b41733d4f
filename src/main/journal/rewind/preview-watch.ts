import { randomUUID } from 'node:crypto'
import { existsSync, watch, type FSWatcher } from 'node:fs'
import { displayPath, keyOf, type PathKey, type RelPath } from '../../fs/paths'

export interface PreviewWatchOptions {
  /** A watch not renewed within this long ends by itself (a window that closed without saying so). */
  leaseMs: number
  /** Changes closer together than this are told as one. */
  debounceMs: number
  /** At most this many watches at once: a new one ends the oldest. */
  maxWatches: number
  /** A preview spread over more folders than this is not watched (the window compares it on focus instead). */
  maxFolders: number
}

export const DEFAULT_PREVIEW_WATCH: PreviewWatchOptions = { leaseMs: 60_000, debounceMs: 150, maxWatches: 32, maxFolders: 256 }

interface Watch {
  watchers: FSWatcher[]
  lease: NodeJS.Timeout
  debounce: NodeJS.Timeout | null
  changed: Set<string>
}

/**
 * Watches the files of open rewind previews, so a preview refreshes itself when one of them
 * changes on disk while it is on screen (focused or not). One `fs.watch` per folder holding a
 * preview's files (not recursive: Linux watches folders, not trees); a file whose folder is
 * missing is watched from its nearest existing ancestor, by the name of the first missing
 * folder. Events of other names in those folders (editors' temp files, other files) are ignored.
 * Each watch is leased: the window renews it while the preview is open and ends it on close.
 */
export class PreviewWatches {
  private readonly watches = new Map<string, Watch>()

  constructor(
    private readonly onChange: (watchId: string, paths: string[]) => void,
    private readonly options: PreviewWatchOptions = DEFAULT_PREVIEW_WATCH
  ) {}

  /**
   * Start watching `paths` under `root` (or, with the id of a live watch, renew it for these
   * paths). `watching` is false when the files cannot be watched (too many folders, or the
   * system refused a watch): the caller compares on its own then.
   */
  watch(root: string, paths: readonly RelPath[], watchId: string = randomUUID()): { watchId: string; watching: boolean } {
    this.unwatch(watchId)
    const folders = foldersToWatch(Buffer.from(root, 'utf8'), paths)
    if (folders.size > this.options.maxFolders) return { watchId, watching: false }
    const entry: Watch = { watchers: [], lease: setTimeout(() => this.unwatch(watchId), this.options.leaseMs), debounce: null, changed: new Set() }
    entry.lease.unref()
    try {
      for (const { folder, names } of folders.values()) {
        const watcher = watch(folder, { encoding: 'buffer', persistent: false }, (_event, name) => {
          const relevant = name === null ? [...names.values()] : [names.get(keyOf(name))].filter((path) => path !== undefined)
          if (relevant.length > 0) this.changed(watchId, relevant)
        })
        // A folder removed under the watch ends it quietly; the rest still report.
        watcher.on('error', () => watcher.close())
        entry.watchers.push(watcher)
      }
    } catch {
      // ENOSPC (the system's limit of watches), a folder gone since it was found: not watched.
      for (const watcher of entry.watchers) watcher.close()
      clearTimeout(entry.lease)
      return { watchId, watching: false }
    }
    this.watches.set(watchId, entry)
    for (const [id] of [...this.watches].slice(0, Math.max(0, this.watches.size - this.options.maxWatches))) this.unwatch(id)
    return { watchId, watching: true }
  }

  unwatch(watchId: string): boolean {
    const entry = this.watches.get(watchId)
    if (!entry) return false
    this.watches.delete(watchId)
    for (const watcher of entry.watchers) watcher.close()
    clearTimeout(entry.lease)
    if (entry.debounce) clearTimeout(entry.debounce)
    return true
  }

  /** How many watches are live (tests). */
  get size(): number {
    return this.watches.size
  }

  close(): void {
    for (const watchId of [...this.watches.keys()]) this.unwatch(watchId)
  }

  private changed(watchId: string, paths: string[]): void {
    const entry = this.watches.get(watchId)
    if (!entry) return
    for (const path of paths) entry.changed.add(path)
    if (entry.debounce) return
    entry.debounce = setTimeout(() => {
      entry.debounce = null
      const told = [...entry.changed].sort()
      entry.changed.clear()
      if (this.watches.get(watchId) === entry) this.onChange(watchId, told)
    }, this.options.debounceMs)
    entry.debounce.unref()
  }
}

/** Per folder to watch (absolute, as bytes): the child names that matter there, each with the preview path it stands for. */
function foldersToWatch(root: Buffer, paths: readonly RelPath[]): Map<PathKey, { folder: Buffer; names: Map<PathKey, string> }> {
  const folders = new Map<PathKey, { folder: Buffer; names: Map<PathKey, string> }>()
  for (const path of paths) {
    const segments = splitBytes(path)
    // The deepest folder on the way that exists; the name watched in it is the next segment.
    let depth = segments.length - 1
    while (depth > 0 && !existsSync(absolute(root, segments.slice(0, depth)))) depth -= 1
    const folder = absolute(root, segments.slice(0, depth))
    const name = segments[depth] ?? path
    const key = keyOf(folder)
    const known = folders.get(key) ?? { folder, names: new Map<PathKey, string>() }
    known.names.set(keyOf(name), displayPath(path))
    folders.set(key, known)
  }
  return folders
}

const SLASH = Buffer.from('/')

function absolute(root: Buffer, segments: readonly Buffer[]): Buffer {
  return Buffer.concat([root, ...segments.flatMap((segment) => [SLASH, segment])])
}

function splitBytes(path: Buffer): Buffer[] {
  const segments: Buffer[] = []
  let start = 0
  for (let index = 0; index <= path.length; index += 1) {
    if (index === path.length || path[index] === 0x2f) {
      segments.push(path.subarray(start, index))
      start = index + 1
    }
  }
  return segments
}
