import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import type { FileStat } from './file-stat'

/** A file whose reading stopped a parse thread, as it was then. */
interface StoppedFile {
  path: string
  dev: number
  ino: number
  size: number
  mtimeMs: number
  at: string
  why: string
}

/**
 * History files that stopped a parse thread (out of memory, a crash: parse-thread.ts
 * ParseThreadStopped), remembered by identity, size and modification time so that the import
 * rounds (every 45 s) and the next start do not read them again and again: each is read again
 * once it changes. Kept in the data folder (`import-stopped-files.json`, 0600), written whole by
 * a temporary file and a rename; an unreadable one is as none (the files are tried again).
 */
export class StoppedFiles {
  private readonly files = new Map<string, StoppedFile>()

  /** `path`: where they are kept (null: in memory only, for this process). */
  constructor(private readonly path: string | null) {
    if (!path) return
    try {
      for (const file of JSON.parse(readFileSync(path, 'utf8')) as StoppedFile[]) this.files.set(file.path, file)
    } catch {
      // none yet, or torn: every file is tried again
    }
  }

  /** Why the file is not read now (it stopped a thread and has not changed since), or null. */
  notReadAgain(path: string, stat?: FileStat): string | null {
    const stopped = this.files.get(path)
    if (!stopped) return null
    let now = stat
    try {
      now ??= statSync(path)
    } catch {
      return null // gone: the import says so
    }
    if (now.dev === stopped.dev && now.ino === stopped.ino && now.size === stopped.size && now.mtimeMs === stopped.mtimeMs) {
      return `not read again: Retrace's parse thread stopped while reading it on ${stopped.at} (${stopped.why}); it is read again once it changes`
    }
    this.files.delete(path)
    this.save()
    return null
  }

  remember(path: string, why: string): void {
    try {
      const { dev, ino, size, mtimeMs } = statSync(path)
      this.files.set(path, { path, dev, ino, size, mtimeMs, at: new Date().toISOString(), why })
      this.save()
    } catch {
      // gone meanwhile: nothing to remember
    }
  }

  /** Written whole; a data folder that cannot take it (read-only, full) leaves it in memory for this process. */
  private save(): void {
    if (!this.path) return
    const temporary = `${this.path}.${process.pid}.tmp`
    try {
      writeFileSync(temporary, JSON.stringify([...this.files.values()]), { mode: 0o600 })
      renameSync(temporary, this.path)
    } catch {
      // kept in memory
    }
  }
}
