import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRuntime } from '../runtime/runtime'
import { agentWorkspace, type AgentWorkspace } from './testing/agent-workspace'
import { TurnCapture } from './turn-capture'
import { canMountTmpfs, mountTmpfs, unmountTmpfs } from './testing/tmpfs'
import { databaseOf } from '../store/raw-database'

/** A full disk is said as such, with the folder it could not write in: never as a snapshot or file that "cannot be read". */
function expectDiskFull(message: string, folder: string): void {
  expect(message).toMatch(/disk full \(ENOSPC\)/)
  expect(message).toContain(folder)
  expect(message).not.toMatch(/cannot be read|could not read|unreadable|cannot be used/)
}

const probe = canMountTmpfs()
const reason = 'needs permission to mount a tmpfs (root); a real full disk cannot be faked honestly'

describe.skipIf(!probe)(`disk full (R4) — skipped unless it ${reason}`, () => {
  const mounts: string[] = []
  let ws: AgentWorkspace | undefined
  afterEach(() => {
    ws?.dispose()
    ws = undefined
    for (const dir of mounts.splice(0)) unmountTmpfs(dir)
  })

  it('a rewind that runs out of space fails cleanly: every file as before, no partial file, no retry', async () => {
    const disk = mountTmpfs(2048)
    if (!disk) throw new Error('mount failed')
    mounts.push(disk)
    const big = Buffer.alloc(1200 * 1024, 'a')
    ws = agentWorkspace()
    // Put the workspace on the tiny disk (the store stays on the normal one).
    const root = join(disk, 'project')
    mkdirSync(root)
    writeFileSync(join(root, 'big.bin'), big)
    const workspaceId = ws.rt.store.workspaces.open(root, 'tiny')
    const writer = ws.rt.recorder.startSession({ workspaceId })
    writer.append({ role: 'user', content: 'shrink it' })
    writeFileSync(join(root, 'big.bin'), 'small now')
    writer.recordFileChange({ path: 'big.bin', before: big, after: Buffer.from('small now') })
    writeFileSync(join(root, 'note.txt'), 'new')
    writer.recordFileChange({ path: 'note.txt', before: null, after: Buffer.from('new') })
    writeFileSync(join(disk, 'filler'), Buffer.alloc(1500 * 1024)) // leave < 1.2 MB free

    const error = await ws.rt.rewinds.applyTurn(writer.id, 1).catch((e: unknown) => e as { code: string; message: string })
    expect(error).toMatchObject({ code: 'IO_ERROR' })
    expectDiskFull((error as { message: string }).message, root)
    expect(readdirSync(root).sort()).toEqual(['big.bin', 'note.txt'])
    expect(readFileSync(join(root, 'big.bin'), 'utf8')).toBe('small now')
    expect(readFileSync(join(root, 'note.txt'), 'utf8')).toBe('new')
    expect(readdirSync(root).filter((n) => n.startsWith('.retrace'))).toEqual([])
    rmSync(join(disk, 'filler'))
    await ws.rt.rewinds.applyTurn(writer.id, 1) // with space again it simply works
    expect(readdirSync(root)).toEqual(['big.bin'])
  })

  it('a batched rewind running out of space on its writer threads fails cleanly too', async () => {
    const disk = mountTmpfs(2048)
    if (!disk) throw new Error('mount failed')
    mounts.push(disk)
    ws = agentWorkspace()
    const root = join(disk, 'project')
    mkdirSync(join(root, 'src'), { recursive: true })
    const workspaceId = ws.rt.store.workspaces.open(root, 'tiny')
    const writer = ws.rt.recorder.startSession({ workspaceId })
    writer.append({ role: 'user', content: 'empty every file' })
    // 30 inline blobs of 40 kB each (random, so stored raw): 1.2 MB to write back.
    const names = Array.from({ length: 30 }, (_, i) => `src/f${i}.bin`)
    const originals = names.map((_, i) => Buffer.from(Buffer.alloc(40 * 1024, i + 1).map((byte, j) => (byte * 31 + Math.imul(j, 2654435761)) >>> 24)))
    for (const [i, name] of names.entries()) {
      writeFileSync(join(root, name), 'emptied')
      writer.recordFileChange({ path: name, before: originals[i] ?? null, after: Buffer.from('emptied') })
    }
    writeFileSync(join(disk, 'filler'), Buffer.alloc(1400 * 1024)) // leave < 600 kB free

    const error = await ws.rt.rewindsUnder({ batchFrom: 1 }).applyTurn(writer.id, 1).catch((e: unknown) => e as { code: string; message: string })
    expect(error).toMatchObject({ code: 'IO_ERROR' })
    expectDiskFull((error as { message: string }).message, join(root, 'src'))
    expect(readdirSync(join(root, 'src')).sort()).toEqual([...names].map((name) => name.slice(4)).sort())
    for (const name of names) expect(readFileSync(join(root, name), 'utf8')).toBe('emptied')
    rmSync(join(disk, 'filler'))
    await ws.rt.rewindsUnder({ batchFrom: 1 }).applyTurn(writer.id, 1)
    for (const [i, name] of names.entries()) expect(readFileSync(join(root, name)).equals(originals[i] as Buffer)).toBe(true)
  })

  it('a workspace scan onto a full store says the disk is full, not that a file could not be read', async () => {
    const disk = mountTmpfs(3072)
    if (!disk) throw new Error('mount failed')
    mounts.push(disk)
    const dataDir = join(disk, 'data')
    const rt = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test' })
    ws = agentWorkspace()
    try {
      // A file too large to keep inline is written to the store's temp folder by the scan: 4 MB that do not compress.
      const random = Buffer.alloc(4 * 1024 * 1024)
      for (let i = 0; i < random.length; i += 4) random.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 3)) >>> 0, i)
      writeFileSync(join(ws.root, 'large.bin'), random)
      const workspaceId = rt.store.workspaces.open(ws.root, 'project')
      const error = await new TurnCapture(rt.store, rt.journal).begin(workspaceId).catch((e: unknown) => e as Error)
      expect(error).toBeInstanceOf(Error)
      expectDiskFull((error as Error).message, dataDir)
    } finally {
      rt.close()
    }
  })

  it('capturing onto a full store fails cleanly and leaves the store usable', () => {
    const disk = mountTmpfs(3072)
    if (!disk) throw new Error('mount failed')
    mounts.push(disk)
    const rt = createRuntime({ dataDir: join(disk, 'data'), host: { binding: 'web' }, version: 'test' })
    try {
      const workspaceId = rt.store.workspaces.open(disk, 'ws')
      const writer = rt.recorder.startSession({ workspaceId })
      writer.append({ role: 'user', content: 'write a big file' })
      const random = Buffer.alloc(4 * 1024 * 1024)
      for (let i = 0; i < random.length; i += 4) random.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 3)) >>> 0, i)
      expect(() => writer.recordFileChange({ path: 'huge.bin', before: null, after: random })).toThrow(/disk full/)
      expect(readdirSync(join(disk, 'data', 'blobs', 'tmp'))).toEqual([])
      expect(databaseOf(rt.store).prepare('SELECT count(*) FROM journal_entries').pluck().get()).toBe(0)
      writer.recordFileChange({ path: 'small.txt', before: null, after: Buffer.from('still works') })
      expect(databaseOf(rt.store).prepare('SELECT count(*) FROM journal_entries').pluck().get()).toBe(1)
    } finally {
      rt.close()
    }
  })
})
