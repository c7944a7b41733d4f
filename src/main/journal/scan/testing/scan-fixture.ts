import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { tempDir, tempRuntime } from '../../../testing/temp-runtime'
import { BlobStore } from '../../blob-store'
import { keyOf, type PathKey } from '../../../fs/paths'
import { scanWorkspace, type ScanOptions } from '../scan'
import type { ScanResult } from '../types'
import { databaseOf } from '../../../store/raw-database'

/** A real workspace folder, a real store and blob store, and a scan bound to them (tests only). */
export interface ScanFixture {
  root: string
  rt: ReturnType<typeof tempRuntime>
  blobs: BlobStore
  workspaceId: number
  write(rel: string, content?: string | Buffer): string
  scan(options?: Partial<ScanOptions>): Promise<ScanResult>
  /** `file_states` rows of the workspace, in path order. */
  rows(): { path: Buffer; hash: string; ctime_ns: number | bigint }[]
  tempFiles(): string[]
  dispose(): void
}

/**
 * A short racy window keeps the tests fast: files written by a test count as settled after
 * `settle()`, so a second scan may reuse their hashes.
 */
export const TEST_RACY_WINDOW_MS = 30
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, TEST_RACY_WINDOW_MS * 2))

export const key = (rel: string | Buffer): PathKey => keyOf(typeof rel === 'string' ? Buffer.from(rel) : rel)

export function scanFixture(): ScanFixture {
  const rt = tempRuntime()
  const folder = tempDir('retrace-scan-')
  const root = folder.path
  const blobs = new BlobStore(rt.store.blobs, join(rt.store.dataDir, 'blobs'))
  const workspaceId = rt.store.workspaces.open(root, 'scan test')
  return {
    root,
    rt,
    blobs,
    workspaceId,
    write(rel, content = rel) {
      const path = join(root, rel)
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, content)
      return path
    },
    scan: (options = {}) => scanWorkspace({ root, workspaceId, store: rt.store, blobs, racyWindowMs: TEST_RACY_WINDOW_MS, ...options }),
    rows: () =>
      databaseOf(rt.store).prepare('SELECT path, hash, ctime_ns FROM file_states WHERE workspace_id = ? ORDER BY path').safeIntegers(true).all(workspaceId) as {
        path: Buffer
        hash: string
        ctime_ns: bigint
      }[],
    tempFiles: () => readdirSync(blobs.tempDir),
    dispose() {
      rt.dispose()
      folder.dispose()
    }
  }
}
