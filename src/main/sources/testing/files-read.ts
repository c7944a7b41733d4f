import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'

/** Files the store says were read, as another process sees them (0 until the store exists). */
export function filesRead(dataDir: string): number {
  const path = join(dataDir, 'retrace.db')
  if (!existsSync(path)) return 0
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true })
    try {
      return (db.prepare('SELECT count(*) AS n FROM import_files').get() as { n: number }).n
    } finally {
      db.close()
    }
  } catch {
    return 0 // not created yet, or its schema not written yet
  }
}
