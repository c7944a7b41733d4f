import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { leafCellBytes, pageFillingOrder } from './blob-pages'

/** Leaf pages used when cells are appended in `order`, each page filled until the next cell does not fit. */
function leafPages(sizes: number[], pageSize: number): number {
  let pages = 0
  let free = 0
  for (const cell of sizes.map((size) => leafCellBytes(size, pageSize))) {
    if (cell > free) {
      pages++
      free = pageSize - 8
    }
    free -= cell
  }
  return pages
}

describe('pageFillingOrder', () => {
  it('is a permutation of the batch', () => {
    const sizes = Array.from({ length: 200 }, (_, i) => (i * 7919) % 20_000)
    expect([...pageFillingOrder(sizes, (size) => size, 4096)].sort((a, b) => a - b)).toEqual([...sizes].sort((a, b) => a - b))
    expect(pageFillingOrder([], (size: number) => size, 4096)).toEqual([])
  })

  it('puts the tails of many rows into fewer leaf pages than scan order', () => {
    const sizes = Array.from({ length: 500 }, (_, i) => 300 + ((i * 7919) % 30_000))
    const packed = pageFillingOrder(sizes, (size) => size, 4096)
    expect(leafPages(packed, 4096)).toBeLessThan(leafPages(sizes, 4096) * 0.85)
  })

  it('makes a real SQLite table smaller (the cell model matches the file format)', () => {
    const sizes = Array.from({ length: 400 }, (_, i) => 200 + ((i * 7919) % 12_000))
    const pagesWhenInserted = (order: number[]): number => {
      const db = new Database(':memory:')
      try {
        db.exec('CREATE TABLE blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB)')
        const insert = db.prepare('INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?)')
        db.transaction(() => order.forEach((size) => insert.run(randomBytes(32).toString('hex'), size, randomBytes(size))))()
        return db.pragma('page_count', { simple: true }) as number
      } finally {
        db.close()
      }
    }
    const page = 4096
    const rowBytes = (size: number): number => size + 80 // the hash and the record header
    expect(pagesWhenInserted(pageFillingOrder(sizes, rowBytes, page))).toBeLessThan(pagesWhenInserted(sizes) - 30)
  })
})
