import type { Db } from './database'

/**
 * One instance per database connection. A repository prepares its statements when it is made:
 * made anew for every file or chunk of an import, preparing cost more than the work (thousands
 * of small files), so call sites share the connection's one.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>()
  return (db) => {
    let instance = made.get(db)
    if (instance === undefined) {
      instance = make(db)
      made.set(db, instance)
    }
    return instance
  }
}
