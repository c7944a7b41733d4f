import { readdirSync, statSync, watch } from 'node:fs'
import { join } from 'node:path'

/** Starts watching one folder (not its subfolders); throws when it cannot (inotify's watch limit, a folder gone). */
export type WatchFolder = (folder: string, onChange: (name: string | null) => void, onError: (error: unknown) => void) => { close(): void }

const watchFolder: WatchFolder = (folder, onChange, onError) => {
  const watcher = watch(folder, { persistent: false }, (_event, name) => onChange(name === null ? null : String(name)))
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

/**
 * Watches the agents' history folders (each folder, not each file: an append to a file raises
 * an event in its folder) so that a running app's re-check can read the files that changed
 * instead of a stat of every file. Anything it cannot vouch for says "everything": before its
 * first `take`, after an error or a folder it could not watch, an event without a name, and a
 * root that did not exist and now does. Events are never dropped between two `take`s: one that
 * arrives while a re-check runs is in the next.
 */
export class HistoryWatch {
  private readonly folders = new Map<string, { close(): void }>()
  private readonly missing: string[] = []
  private readonly watched: string[] = []
  private paths = new Set<string>()
  private everything = true
  private broken = false

  constructor(
    roots: readonly string[],
    private readonly start: WatchFolder = watchFolder
  ) {
    for (const root of roots) (this.attach(root, 0) ? this.watched : this.missing).push(root)
  }

  /** Whether the watch stopped vouching for anything (then only a new watch helps). */
  get failed(): boolean {
    return this.broken
  }

  take(): HistoryChanges {
    if (this.missing.some((root) => isFolder(root))) this.everything = true
    // A root removed (and maybe made again) took its watch with it: only a new watch sees into it.
    if (this.watched.some((root) => !isFolder(root))) this.fail()
    const changes = { everything: this.everything || this.broken, paths: this.paths }
    this.paths = new Set()
    this.everything = false
    return changes
  }

  close(): void {
    for (const watcher of this.folders.values()) watcher.close()
    this.folders.clear()
  }

  /** Watch `folder` and the folders below it; false when it is not a folder. */
  private attach(folder: string, depth: number): boolean {
    if (this.broken || this.folders.has(folder)) return true
    let entries
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return false
    }
    if (this.folders.size >= MAX_FOLDERS) return this.fail()
    try {
      this.folders.set(folder, this.start(folder, (name) => this.changed(folder, name, depth), () => this.fail()))
    } catch {
      return this.fail()
    }
    if (depth < MAX_DEPTH) for (const entry of entries) if (entry.isDirectory()) this.attach(join(folder, entry.name), depth + 1)
    return true
  }

  private changed(folder: string, name: string | null, depth: number): void {
    if (name === null) {
      this.everything = true
      return
    }
    const path = join(folder, name)
    this.paths.add(path)
    // A new folder (a new project, a new day of Codex sessions) is watched from now on; what
    // was written into it before is found by the full pass its own path calls for.
    if (depth < MAX_DEPTH && !this.folders.has(path) && isFolder(path)) this.attach(path, depth + 1)
    else if (this.folders.has(path) && !isFolder(path)) {
      this.folders.get(path)?.close()
      this.folders.delete(path)
    }
  }

  private fail(): true {
    this.broken = true
    this.close()
    return true
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
