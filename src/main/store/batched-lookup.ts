/**
 * Keys looked up by one statement, passed as a JSON array (`… IN (SELECT value FROM json_each(?))`):
 * SQLite walks its index once per key, without a call per key from JavaScript. A large rewind
 * looks up a thousand or more blobs and scanned files at once.
 */
export const LOOKUP_BATCH = 4096

/** The rows `select` returns for `keys`, given LOOKUP_BATCH keys at a time as a JSON array. */
export function lookUpInBatches<Row>(keys: string[], select: (keysJson: string) => Row[]): Row[] {
  const rows: Row[] = []
  for (let start = 0; start < keys.length; start += LOOKUP_BATCH) rows.push(...select(JSON.stringify(keys.slice(start, start + LOOKUP_BATCH))))
  return rows
}
