import { statSync } from 'node:fs'
import type { DiscoveredFileRepository } from '../store/repositories/discovered-files'
import type { FileStat } from './file-stat'

/**
 * What discovery read from files' first lines, remembered in the store by each file's identity,
 * size and modification time: a re-import of unchanged histories sorts thousands of files into
 * their workspaces without opening one. Anything it holds can be read again from the file. A
 * running Retrace keeps one (its importer's), with what it has parsed of it.
 */
export class DiscoveryCache {
  /** By path: the facts as stored (JSON), until they are parsed; then only what they parse to. */
  private readonly known: Map<string, { signature: string; facts?: string; value?: unknown }>
  private readonly found = new Map<string, { signature: string; facts: string }>()
  private readonly stats = new Map<string, FileStat>()
  /** Reads under way: a second discovery at the same time (live following's) waits for the first's. */
  private readonly reading = new Map<string, { signature: string; facts: Promise<unknown> }>()

  constructor(private readonly repository: DiscoveredFileRepository) {
    this.known = repository.all()
  }

  /**
   * The facts `read` gives for the file at `path`, from the store while the file is unchanged;
   * stored facts `accept` rejects (of an older shape, without what discovery now reads) are read again.
   */
  async facts<T>(path: string, read: () => Promise<T>, accept: (facts: T) => boolean = () => true): Promise<T> {
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
    if (known?.signature === signature) {
      let value = known.value as T
      if (known.facts !== undefined) {
        // Kept parsed only: for tens of thousands of files, the text and the objects both were megabytes.
        value = JSON.parse(known.facts) as T
        this.known.set(path, { signature, value })
      }
      if (accept(value)) return value
    }
    const underWay = this.reading.get(path)
    if (underWay?.signature === signature) return (await underWay.facts) as T
    const reading = read()
    this.reading.set(path, { signature, facts: reading })
    let facts: T
    try {
      facts = await reading
    } finally {
      if (this.reading.get(path)?.facts === reading) this.reading.delete(path)
    }
    this.found.set(path, { signature, facts: JSON.stringify(facts) })
    this.known.set(path, { signature, value: facts })
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
