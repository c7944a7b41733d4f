import { stat } from 'node:fs/promises'
import type { HistoryFile } from './adapter'
import type { ImportOptions } from './import-deps'
import { QuietFiles } from './quiet-files'

/** How often an open workspace's history files are checked for new lines. */
const WATCH_INTERVAL_MS = 400
/** New files (a session just started) are looked for less often than known files grow. */
const REDISCOVER_EVERY = 5

/** What following one workspace needs from the importer. */
export interface FollowedWorkspace {
  /** The workspace; undefined once it is gone (following stops). */
  workspace(): { id: number; path: string } | undefined
  discover(workspace: { id: number; path: string }): Promise<HistoryFile[]>
  /** Import these files, after the workspace's other imports; a cancel stops this step only. */
  importStep(workspace: { id: number; path: string }, files: HistoryFile[], options: ImportOptions): Promise<void>
  /** Files a cancel left over: they wait for `imports.run`. */
  pending(): Set<string>
  /** Where the last complete line imported from a file ends. */
  importedOffset(file: HistoryFile): number
  /** Each check as it runs: the importer's close waits for the one under way. */
  track(check: Promise<void>): Promise<void>
}

/**
 * Follow a workspace live: known files are checked for new bytes every 400 ms, and new files
 * looked for every 2 s, so a running agent's lines reach the open transcript within a second.
 * A last line left unfinished is reported once its file has been quiet for a while. Returns the
 * function that stops following (`onStop` is told).
 */
export function followWorkspace(followed: FollowedWorkspace, incompleteLineAfterMs: number, onError: (error: unknown) => void, onStop: () => void): () => void {
  const sizes = new Map<string, number | string>()
  const imported = new Map<string, number | string>()
  const quiet = new QuietFiles(incompleteLineAfterMs)
  /** Bytes after the last complete line that was imported: a line not finished (yet). */
  const endsUnfinished = (file: HistoryFile) => followed.importedOffset(file) < Number(sizes.get(file.path))
  let tick = 0
  let stopped = false
  let files: HistoryFile[] = []
  const check = async () => {
    const workspace = followed.workspace()
    if (!workspace) return stop()
    if (tick % REDISCOVER_EVERY === 0) files = await followed.discover({ id: workspace.id, path: workspace.path })
    if (stopped) return
    tick += 1
    const now = Date.now()
    let grown = false
    for (const file of files) {
      // A snapshot store changes in place (its WAL grows): its fingerprint, refreshed with discovery, says so.
      const size = file.fingerprint ?? (await stat(file.path).then((s) => (quiet.observe(file.path, s.size, s.mtimeMs, now), s.size), () => -1))
      if (imported.get(file.path) !== size) grown = true
      sizes.set(file.path, size)
    }
    // Files a cancel left over wait for `imports.run`; the rest are followed as usual.
    const pending = followed.pending()
    const onFileDone = (path: string) => imported.set(path, sizes.get(path) ?? -1)
    const step = async (some: HistoryFile[], options: ImportOptions) => {
      if (some.length > 0) await followed.importStep({ id: workspace.id, path: workspace.path }, some, { ...options, onFileDone })
    }
    if (stopped) return // stopped while it looked: nothing more to import
    if (grown) await step(files.filter((file) => sizes.get(file.path) !== imported.get(file.path) && !pending.has(file.path)), {})
    // A last line still unfinished once its file has been quiet for a while is reported.
    const quietWithUnfinishedLine = files.filter(
      (file) => !file.fingerprint && !pending.has(file.path) && imported.get(file.path) === sizes.get(file.path) && quiet.takeDue(file.path, now) && endsUnfinished(file)
    )
    await step(quietWithUnfinishedLine, { reportIncompleteLines: true })
  }
  const loop = () => {
    if (stopped) return
    followed
      .track(check())
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, WATCH_INTERVAL_MS).unref()
      })
  }
  let timer: NodeJS.Timeout = setTimeout(loop, 0).unref()
  const stop = () => {
    stopped = true
    clearTimeout(timer)
    onStop()
  }
  return stop
}
