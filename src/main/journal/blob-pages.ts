/**
 * The order in which to insert a batch of inline blobs so they fill SQLite's pages.
 *
 * SQLite appends each new row of the `blobs` table to its last leaf page; a row that does not
 * fit starts a new page and the rest of the old one stays empty. A row larger than about a page
 * keeps only its tail in the leaf (between ~500 bytes and a page, the rest fills whole overflow
 * pages), so leaf pages receive pieces of every size, and in scan order about a quarter of
 * their space is left empty. Taking a batch largest first into pages, first fit, leaves almost
 * nothing. Only the order of INSERTs inside one transaction changes: a wrong
 * estimate costs some space, never correctness.
 *
 * The sizes follow the SQLite file format (https://sqlite.org/fileformat2.html, "B-tree pages"
 * and "Cell payload overflow pages") for a table b-tree leaf with no reserved bytes.
 */

/** Leaf page header (8) is not usable; each cell also needs a 2-byte pointer. */
const LEAF_HEADER_BYTES = 8
const CELL_POINTER_BYTES = 2
/** The varints before a cell's payload: its size and its rowid (both usually 2–3 bytes). */
const CELL_VARINT_BYTES = 6
const OVERFLOW_POINTER_BYTES = 4

/** Bytes a row whose record is `payload` bytes takes in its leaf page, pointer included. */
export function leafCellBytes(payload: number, pageSize: number): number {
  const maxLocal = pageSize - 35
  const minLocal = Math.floor(((pageSize - 12) * 32) / 255) - 23
  if (payload <= maxLocal) return payload + CELL_VARINT_BYTES + CELL_POINTER_BYTES
  const surplus = minLocal + ((payload - minLocal) % (pageSize - 4))
  const local = surplus <= maxLocal ? surplus : minLocal
  return local + CELL_VARINT_BYTES + OVERFLOW_POINTER_BYTES + CELL_POINTER_BYTES
}

/**
 * `items` reordered so that, appended one after another, their leaf cells fill pages: each page
 * gets the largest remaining cell, then the largest ones that still fit, until none does.
 */
export function pageFillingOrder<T>(items: readonly T[], recordBytes: (item: T) => number, pageSize: number): T[] {
  const room = pageSize - LEAF_HEADER_BYTES
  const left = items.map((item) => ({ item, cell: leafCellBytes(recordBytes(item), pageSize) })).sort((a, b) => b.cell - a.cell)
  const order: T[] = []
  let free = 0
  while (left.length > 0) {
    let next = left.findIndex((entry) => entry.cell <= free)
    if (next < 0) {
      free = room // nothing fits: the largest remaining cell opens a new page
      next = 0
    }
    const [taken] = left.splice(next, 1)
    if (!taken) break
    order.push(taken.item)
    free -= taken.cell
  }
  return order
}
