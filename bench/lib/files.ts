import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh folder under the OS temp dir for the bench's databases. */
export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'retrace-bench-'))
}

export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true })
}

/** Size on disk of an SQLite database with its WAL and shared-memory files. */
export function databaseBytes(dbPath: string): number {
  return ['', '-wal', '-shm'].reduce((sum, suffix) => sum + (existsSync(dbPath + suffix) ? statSync(dbPath + suffix).size : 0), 0)
}
