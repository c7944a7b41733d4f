import type { BigIntStats } from 'node:fs'
import type { CacheColumns, WireKind } from '../protocol.ts'

/** The previous scan's entries (the `cache` of ScanInput), looked up by path key. */
export class PreviousScan {
  private readonly columns: CacheColumns
  /** Path key → index of its entry in `columns`. */
  private readonly index: Map<string, number>

  constructor(columns: CacheColumns) {
    this.columns = columns
    const keys = columns.kinds.length === 0 ? [] : columns.keys.split('\0')
    this.index = new Map(keys.map((key, index) => [key, index]))
  }

  /** The entry `key` if it matches on every stat field (kind, size, mode, mtime, ctime, inode), or -1. */
  hit(key: string, kind: WireKind, st: BigIntStats, mode: number): number {
    const index = this.index.get(key)
    if (index === undefined) return -1
    const c = this.columns
    const same = c.kinds[index] === (kind === 'file' ? 0 : 1) && c.sizes[index] === Number(st.size) && c.modes[index] === mode && c.mtimeNs[index] === st.mtimeNs && c.ctimeNs[index] === st.ctimeNs && c.inos[index] === st.ino
    return same ? index : -1
  }
}
