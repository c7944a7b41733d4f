import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, lstatSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { INLINE_MAX_BYTES, sha256 } from '../blob-store'
import { INLINE_DEFLATE } from '../shared-constants.mts'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { databaseOf } from '../../store/raw-database'

// A large rewind replaces regular files on the writer threads (ThreadedReplace); batchFrom: 1
// makes these small rewinds take that path.

describe('a rewind on the writer threads', () => {
  let ws: AgentWorkspace
  const outside: string[] = []
  afterEach(() => {
    ws.dispose()
    for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('writes snapshots stored deflated, raw and deflated with the workspace dictionary byte-exact, each with its mode', async () => {
    const text = Buffer.from('export const answer = 42\n'.repeat(400))
    const noise = randomBytes(4000)
    const vocabulary = 'import { shared } from "../vocabulary"\n'
    const shared = Buffer.from(`${vocabulary}export const mine = shared + 1\n`.repeat(20))
    ws = agentWorkspace({ 'text.ts': text, 'noise.bin': noise, 'lib/shared.ts': shared })
    chmodSync(join(ws.root, 'text.ts'), 0o755)
    chmodSync(join(ws.root, 'noise.bin'), 0o664) // group-writable: what a usual umask would take off (write for everyone comes back only where a scan here saw it, R25)
    ws.agent.turn()
    for (const path of ['text.ts', 'noise.bin', 'lib/shared.ts']) ws.agent.write(path, `${path} rewritten\n`, 0o644)
    // The third snapshot stored as a scan stores it: deflated with the workspace's preset dictionary.
    const { blobs } = ws.journal
    const dictionary = blobs.dictionaries.adopt(ws.workspaceId, Buffer.from(vocabulary.repeat(40)))
    const withDictionary = deflateRawSync(shared, { ...INLINE_DEFLATE, dictionary: blobs.dictionaries.bytes(dictionary) })
    databaseOf(ws.rt.store).prepare("UPDATE blobs SET encoding = 'deflate', dictionary_id = ?, data = ? WHERE hash = ?").run(dictionary, withDictionary, sha256(shared))
    const stored = (content: Buffer) => databaseOf(ws.rt.store).prepare('SELECT encoding, dictionary_id AS dictionary FROM blobs WHERE hash = ?').get(sha256(content))
    expect([stored(text), stored(noise), stored(shared)]).toEqual([
      { encoding: 'deflate', dictionary: null },
      { encoding: 'raw', dictionary: null },
      { encoding: 'deflate', dictionary }
    ])

    const result = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    expect(result.steps).toHaveLength(3)
    expect(ws.read('text.ts')?.equals(text)).toBe(true)
    expect(ws.read('noise.bin')?.equals(noise)).toBe(true)
    expect(ws.read('lib/shared.ts')?.equals(shared)).toBe(true)
    const modeOf = (path: string) => lstatSync(join(ws.root, path)).mode & 0o7777
    expect([modeOf('text.ts'), modeOf('noise.bin'), modeOf('lib/shared.ts')]).toEqual([0o755, 0o664, 0o644])
  })

  it('restores more files than the store is read for at once (300), each from its own snapshot', async () => {
    const before = (n: number) => `file ${n} before\n`.repeat(1 + (n % 5))
    const names = Array.from({ length: 300 }, (_, n) => `d${n % 7}/f${String(n).padStart(3, '0')}.txt`)
    ws = agentWorkspace(Object.fromEntries(names.map((name, n) => [name, before(n)])))
    ws.agent.turn()
    for (const [n, name] of names.entries()) ws.agent.write(name, `file ${n} after\n`)
    const result = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    expect(result.steps).toHaveLength(names.length)
    expect(names.filter((name, n) => ws.text(name) !== before(n))).toEqual([])
  })

  it('removes the files it set aside once it has returned, leaving no file of its own and no intent log, and can be undone', async () => {
    const names = Array.from({ length: 40 }, (_, n) => `d${n % 3}/f${n}.txt`)
    ws = agentWorkspace(Object.fromEntries(names.map((name) => [name, `${name} before\n`])))
    ws.agent.turn()
    for (const name of names) ws.agent.write(name, `${name} after\n`)
    const { rewindId } = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    await ws.settled()
    expect(names.filter((name) => ws.text(name) !== `${name} before\n`)).toEqual([])
    expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
    expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual([])
    // What the rewind replaced (and freed only afterwards) is in the store: the undo puts it back.
    await ws.rewindsUnder({ batchFrom: 1 }).undo(rewindId)
    await ws.settled()
    expect(names.filter((name) => ws.text(name) !== `${name} after\n`)).toEqual([])
    expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
  })

  it('refuses to write through a folder swapped for a link after the plan, and puts everything back', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'dir/b.txt': 'b before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after\n')
    ws.agent.write('dir/b.txt', 'b after\n')
    ws.agent.write('made.txt', 'made in the turn\n') // its delete runs first, on the main thread
    const elsewhere = mkdtempSync(join(tmpdir(), 'retrace-outside-'))
    outside.push(elsewhere)
    const swap = () => {
      renameSync(join(ws.root, 'dir'), join(ws.root, 'dir.moved'))
      symlinkSync(elsewhere, join(ws.root, 'dir'))
    }
    const error = await ws.rewindsUnder({ batchFrom: 1, afterStep: (index) => index === 0 && swap() }).applyTurn(ws.writer.id, 1).catch((e: unknown) => e as { message: string })
    expect(error).toMatchObject({ message: expect.stringMatching(/dir\/b\.txt.*symbolic link/) as string })
    expect(readdirSync(elsewhere)).toEqual([]) // nothing written through the link
    expect(ws.text('a.txt')).toBe('a after\n')
    expect(ws.text('made.txt')).toBe('made in the turn\n')
    expect(ws.text('dir.moved/b.txt')).toBe('b after\n')
  })

  it('refuses a corrupt snapshot on the lane that decodes it, writes no garbage, and puts everything back (R2)', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'b.txt': 'b before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after\n')
    ws.agent.write('b.txt', 'b after\n')
    const hash = createHash('sha256').update('b before\n').digest('hex')
    databaseOf(ws.rt.store).prepare("UPDATE blobs SET data = ?, encoding = 'raw' WHERE hash = ?").run(Buffer.from('b b0fore\n'), hash)
    const error = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1).catch((e: unknown) => e as { code: string; message: string })
    expect(error).toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/b\.txt.*does not match its hash.*Every file was put back/) as string })
    expect(ws.text('a.txt')).toBe('a after\n')
    expect(ws.text('b.txt')).toBe('b after\n')
    expect(readdirSync(ws.root).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
  })

  it('refuses a snapshot whose stored bytes cannot be decoded, says so, and puts everything back (R2)', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after\n')
    databaseOf(ws.rt.store).prepare("UPDATE blobs SET data = ?, encoding = 'deflate' WHERE hash = ?").run(Buffer.from('not deflate data'), sha256(Buffer.from('a before\n')))
    const error = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1).catch((e: unknown) => e as { code: string; message: string })
    expect(error).toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/a\.txt.*cannot be decoded.*Every file was put back/) as string })
    expect(ws.text('a.txt')).toBe('a after\n')
    expect(readdirSync(ws.root).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
  })

  it('leaves large blobs (stored as files) and files where a folder must first go to the main thread, and restores them all', async () => {
    const large = Buffer.alloc(INLINE_MAX_BYTES + 1000, 7)
    ws = agentWorkspace({ 'big.bin': large, 'x/y.txt': 'y before\n', 'plain.txt': 'plain before\n' })
    ws.agent.turn()
    ws.agent.write('big.bin', 'small now\n')
    ws.agent.remove('x/y.txt')
    rmSync(join(ws.root, 'x'), { recursive: true })
    ws.agent.write('x', 'x is a file now\n') // restoring x/y.txt needs this file gone first
    ws.agent.write('plain.txt', 'plain after\n')
    const result = await ws.rewindsUnder({ batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    expect(result.steps).toHaveLength(4)
    await ws.settled() // the files set aside are removed after the rewind returns
    expect(ws.read('big.bin')?.equals(large)).toBe(true)
    expect(ws.text('x/y.txt')).toBe('y before\n')
    expect(ws.text('plain.txt')).toBe('plain before\n')
    expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
  })
})
