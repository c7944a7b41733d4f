import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRuntime, type Runtime } from '../runtime/runtime'
import { tempDir } from '../testing/temp-runtime'
import { DATABASE_FILE } from './store'

const modeOf = (path: string): number => statSync(path).mode & 0o777

/** Every folder and file under `root`, with its permission bits. */
function modesUnder(root: string): { folders: Map<string, number>; files: Map<string, number> } {
  const folders = new Map<string, number>([[root, modeOf(root)]])
  const files = new Map<string, number>()
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        folders.set(path, modeOf(path))
        visit(path)
      } else files.set(path, modeOf(path))
    }
  }
  visit(root)
  return { folders, files }
}

describe.skipIf(process.platform === 'win32')('the data folder is private to the user', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((dispose) => dispose()))

  function open(dataDir: string): Runtime {
    const rt = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test', followImports: false })
    cleanups.unshift(() => rt.close())
    return rt
  }

  it('creates the folder 0700 and the database, its WAL and every snapshot file 0600, whatever the umask', async () => {
    const dir = tempDir('retrace-private-')
    cleanups.push(() => dir.dispose())
    const dataDir = join(dir.path, 'nested', 'data')
    const rt = open(dataDir)
    // A large snapshot is a file of its own under blobs/ (small ones live in the database).
    const big = rt.journal.blobs.putBuffer(Buffer.alloc(600 * 1024, 'secret transcript '))
    await rt.journal.blobs.putFile(writeTemp(dir.path, 'streamed.bin', Buffer.alloc(700 * 1024, 'other secret ')))
    rt.store.transaction(() => rt.store.workspaces.open(dir.path, 'x')) // a write: the WAL exists

    const { folders, files } = modesUnder(dataDir)
    expect(existsSync(rt.journal.blobs.filePath(big.hash))).toBe(true)
    expect(existsSync(join(dataDir, `${DATABASE_FILE}-wal`))).toBe(true)
    expect([...folders].filter(([, mode]) => mode !== 0o700)).toEqual([])
    expect([...files].filter(([, mode]) => mode !== 0o600)).toEqual([])
    expect(files.size).toBeGreaterThanOrEqual(5) // database, -wal, -shm, two blob files
  })

  it('leaves the mode of a folder it did not create (a shared sticky 1777 one), on every open, and keeps its own files private', () => {
    const dir = tempDir('retrace-private-')
    cleanups.push(() => dir.dispose())
    const shared = join(dir.path, 'shared')
    mkdirSync(shared)
    chmodSync(shared, 0o1777)
    const mine = join(dir.path, 'mine')
    mkdirSync(mine)
    chmodSync(mine, 0o755)
    for (const dataDir of [shared, mine]) open(dataDir).close()
    cleanups.splice(0, 2)
    for (const dataDir of [shared, mine]) open(dataDir)
    expect(statSync(shared).mode & 0o7777).toBe(0o1777)
    expect(statSync(mine).mode & 0o7777).toBe(0o755)
    const { folders, files } = modesUnder(shared)
    folders.delete(shared)
    expect([...folders].filter(([, mode]) => mode !== 0o700)).toEqual([])
    expect([...files].filter(([, mode]) => mode !== 0o600)).toEqual([])
    expect(folders.size).toBeGreaterThanOrEqual(1) // blobs/ (and its tmp/), Retrace's own
  })

  it('tightens a data folder an earlier version left readable by others, on open', () => {
    const dir = tempDir('retrace-private-')
    cleanups.push(() => dir.dispose())
    const dataDir = join(dir.path, 'data')
    const first = open(dataDir)
    const big = first.journal.blobs.putBuffer(Buffer.alloc(600 * 1024, 'an old snapshot '))
    first.close()
    cleanups.shift()
    // As an earlier Retrace (or a umask of 022) left it.
    const blobFile = first.journal.blobs.filePath(big.hash)
    for (const folder of [dataDir, join(dataDir, 'blobs'), join(dataDir, 'blobs', 'tmp'), join(blobFile, '..')]) chmodSync(folder, 0o755)
    for (const file of [join(dataDir, DATABASE_FILE), blobFile]) chmodSync(file, 0o644)
    mkdirSync(join(dataDir, 'blobs', 'ff'), { mode: 0o755 })
    chmodSync(join(dataDir, 'blobs', 'ff'), 0o755)

    open(dataDir)
    const { folders, files } = modesUnder(dataDir)
    expect([...folders].filter(([, mode]) => mode !== 0o700)).toEqual([])
    expect([...files].filter(([, mode]) => mode !== 0o600)).toEqual([])
  })
})

function writeTemp(dir: string, name: string, content: Buffer): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}
