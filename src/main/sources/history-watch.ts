import { readdirSync, statSync, watch } from 'node:fs'
import { join } from 'node:path'
import type { WatchedFolder } from './adapter'

/** Starts watching one folder (not its subfolders); throws when it cannot (inotify's watch limit, a folder gone). */
export type WatchFolder = (folder: string, onChange: (name: string | null, event: string) => void, onError: (error: unknown) => void) => { close(): void }

const watchFolder: WatchFolder = (folder, onChange, onError) => {
  const watcher = watch(folder, { persistent: false }, (event, name) => onChange(name === null ? null : String(name), event))
  watcher.on('error', onError)
  return watcher
}

/** Agents nest their files a few folders deep (Claude Code: projects/<folder>/<session>/subagents; Codex: sessions/YYYY/MM/DD). */
const MAX_DEPTH = 6
/**
 * Beyond this many folders the watch gives up (full passes then): half of the 8,192 inotify
 * watches many distributions give a user, the rest left to editors and other watchers.
 */
const MAX_FOLDERS = 4096

/** What changed under the roots since the last `take`: every path an event named, or everything (nothing can be told). */
export interface HistoryChanges {
  everything: boolean
  paths: Set<string>
}

/** The default: every folder under the roots, to MAX_DEPTH (a source that says nothing narrower). */
export function everyFolderUnder(roots: readonly string[]): WatchedFolder[] {
  return roots.map((folder) => ({ folder, depth: MAX_DEPTH }))
}

interface Watched {
  watcher: { close(): void }
  spec: WatchedFolder
  parts: readonly string[]
}

/**
 * Watches the agents' history folders (each folder, not each file: an append to a file raises
 * an event in its folder) so that a running app's re-check can read the files that changed
 * instead of a stat of every file. Only what each source says can hold what it imports is
 * watched (WatchedFolder); an event on any other path is ignored. Anything it cannot vouch for
 * says "everything": before its first `take`, after an error or a folder it could not watch, an
 * event without a name, and a watched folder that did not exist and now does. Events are never
 * dropped between two `take`s: one that arrives while a re-check runs is in the next.
 */
export class HistoryWatch {
  private readonly folders = new Map<string, Watched>()
  private missing: WatchedFolder[] = []
  private readonly watched: WatchedFolder[] = []
  private paths = new Set<string>()
  private everything = true
  private broken = false

  constructor(
    specs: readonly WatchedFolder[],
    private readonly start: WatchFolder = watchFolder
  ) {
    for (const spec of specs) (this.attach(spec.folder, spec, []) ? this.watched : this.missing).push(spec)
  }

  /** Whether the watch stopped vouching for anything (then only a new watch helps). */
  get failed(): boolean {
    return this.broken
  }

  take(): HistoryChanges {
    // A folder made since: watched from now on, and what was written into it before is found by a full pass.
    const made = this.missing.filter((spec) => isFolder(spec.folder))
    if (made.length > 0) this.everything = true
    for (const spec of made) if (this.attach(spec.folder, spec, [])) this.watched.push(spec)
    this.missing = this.missing.filter((spec) => !made.includes(spec))
    // A folder removed (and maybe made again) took its watch with it: only a new watch sees into it.
    if (this.watched.some((spec) => !isFolder(spec.folder))) this.fail()
    const changes = { everything: this.everything || this.broken, paths: this.paths }
    this.paths = new Set()
    this.everything = false
    return changes
  }

  close(): void {
    for (const { watcher } of this.folders.values()) watcher.close()
    this.folders.clear()
  }

  /** Watch `folder` and the folders below it that `spec` holds; false when it is not a folder. */
  private attach(folder: string, spec: WatchedFolder, parts: readonly string[]): boolean {
    if (this.broken || this.folders.has(folder)) return true
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return false
    }
    if (this.folders.size >= MAX_FOLDERS) return this.fail()
    try {
      const watcher = this.start(folder, (name, event) => this.changed(folder, name, event), () => this.fail())
      this.folders.set(folder, { watcher, spec, parts })
    } catch {
      return this.fail()
    }
    if (parts.length >= spec.depth) return true
    for (const entry of entries) {
      const below = [...parts, entry.name]
      if (entry.isDirectory() && holds(spec, below)) this.attach(join(folder, entry.name), spec, below)
    }
    return true
  }

  private changed(folder: string, name: string | null, event: string): void {
    const at = this.folders.get(folder)
    if (at === undefined) return
    if (name === null) {
      this.everything = true
      return
    }
    const parts = [...at.parts, ...name.split(/[\\/]/)]
    if (!holds(at.spec, parts)) return
    const path = join(folder, name)
    this.paths.add(path)
    // An append raises 'change': nothing was made or removed, so no stat. An entry made, removed
    // or replaced by a rename (an atomic write) raises 'rename': only discovery can tell what it is now.
    if (event !== 'rename') return
    this.everything = true
    // A new folder (a new project, a new day of Codex sessions) is watched from now on; what
    // was written into it before is found by the full pass its own path calls for.
    if (parts.length <= at.spec.depth && !this.folders.has(path) && isFolder(path)) this.attach(path, at.spec, parts)
    else if (this.folders.has(path) && !isFolder(path)) {
      this.folders.get(path)?.watcher.close()
      this.folders.delete(path)
    }
  }

  private fail(): true {
    this.broken = true
    this.close()
    return true
  }
}

function holds(spec: WatchedFolder, parts: readonly string[]): boolean {
  return spec.holds === undefined || spec.holds(parts)
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
