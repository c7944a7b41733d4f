import type { Db } from './database'

/**
 * The SQLite connection behind a store, for tests and benchmarks that must look at or damage
 * the database itself (a crash test corrupting a row, a benchmark's bulk fill). Production code
 * calls the store's repositories; lint forbids importing this outside the store, tests and bench.
 */
const databases = new WeakMap<object, Db>()

export function rememberDatabase(store: object, db: Db): void {
  databases.set(store, db)
}

export function databaseOf(store: object): Db {
  const db = databases.get(store)
  if (!db) throw new Error('Not a store opened by openStore().')
  return db
}
