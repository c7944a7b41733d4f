import Database from 'better-sqlite3'

/**
 * Replace a text in columns of a copy of an agent's database (a fixture's recorded project path,
 * made the test's temporary workspace), in WAL mode with checkpoints off: the change stays in the
 * `-wal` file while the returned `close` is not called, so a reader that ignored the WAL would
 * see the old text.
 */
export function replaceTextInWal(path: string, columns: Readonly<Record<string, readonly string[]>>, from: string, to: string): { close(): void } {
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('wal_autocheckpoint = 0')
  db.transaction(() => {
    for (const [table, names] of Object.entries(columns)) {
      for (const column of names) db.prepare(`UPDATE "${table}" SET "${column}" = replace("${column}", ?, ?)`).run(from, to)
    }
  })()
  return { close: () => db.close() }
}
