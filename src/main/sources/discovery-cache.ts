import { statSync } from 'node:fs'
import type { DiscoveredFileRepository } from '../store/repositories/discovered-files'
import type { FileStat } from './parse-thread/parse-chunks'

/**
 * What discovery read from files' first lines, remembered in the store by each file's identity,
 * size and modification time: a re-import of unchanged histories sorts thousands of files into
 * their workspaces without opening one. Anything it holds can be read again from the file. A
 * running Retrace keeps one (its importer's), with what it has parsed of it.
 */
export class DiscoveryCache {
  private readonly known: Map<string, { signature: string; facts: string; value?: unknown }>
  private readonly found = new Map<string, { signature: string; facts: string }>()
  private readonly stats = new Map<string, FileStat>()

  constructor(private readonly repository: DiscoveredFileRepository) {
    this.known = repository.all()
  }

  /** The facts `read` gives for the file at `path`, from the store while the file is unchanged. */
  async facts<T>(path: string, read: () => Promise<T>): Promise<T> {
    let signature: string
    try {
      const { dev, ino, size, mtimeMs } = statSync(path)
      this.stats.set(path, { dev, ino, size, mtimeMs })
      signature = `${dev}:${ino}:${size}:${mtimeMs}`
    } catch {
      return read() // gone meanwhile: as without a cache
    }
    const known = this.known.get(path)
    // Callers copy what they take from the facts; the parsed value is shared, never changed.
    if (known?.signature === signature) return (known.value ??= JSON.parse(known.facts)) as T
    const facts = await read()
    const entry = { signature, facts: JSON.stringify(facts), value: facts }
    this.found.set(path, entry)
    this.known.set(path, entry)
    return facts
  }

  /** The file as discovery found it (the import that follows need not stat it again). */
  statOf(path: string): FileStat | undefined {
    return this.stats.get(path)
  }

  /** Store what was read since the last save. */
  save(): void {
    if (this.found.size === 0) return
    this.repository.save([...this.found].map(([path, entry]) => ({ path, ...entry })))
    this.found.clear()
  }
}
