import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { foldsCase } from '../../fs/case-folding'
import { keyOf, checkRelPath } from '../../fs/paths'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { databaseOf } from '../../store/raw-database'

describe('rewind to a chat checkpoint', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  /** Turn 1 creates, modifies and deletes; the plan, then the rewind. */
  function threeChanges(): void {
    ws = agentWorkspace({ 'keep.txt': 'original\n', 'gone.txt': 'to be deleted\n', 'untouched.txt': 'never touched\n' })
    ws.agent.turn()
    ws.agent.write('new/created.txt', 'agent made this\n')
    ws.agent.write('keep.txt', 'agent changed this\n')
    ws.agent.remove('gone.txt')
  }

  it('restores, re-creates and deletes exactly what turn 1 did, and reports exactly that (R7, R10)', async () => {
    threeChanges()
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    expect(plan.items.map((i) => [i.path.toString(), i.action, i.conflict])).toEqual([
      ['new/created.txt', 'delete', null],
      ['keep.txt', 'restore', null],
      ['gone.txt', 'create', null]
    ])
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token })
    expect(result.steps.map((s) => [s.kind, s.path.toString()]).sort()).toEqual([
      ['delete', 'new/created.txt'],
      ['write', 'gone.txt'],
      ['write', 'keep.txt']
    ])
    expect(ws.text('keep.txt')).toBe('original\n')
    expect(ws.text('gone.txt')).toBe('to be deleted\n')
    expect(ws.text('new/created.txt')).toBeNull()
    expect(existsSync(join(ws.root, 'new'))).toBe(false) // the folder the agent created went with its file
    expect(ws.text('untouched.txt')).toBe('never touched\n')
    expect(readdirSync(ws.root).filter((n) => n.startsWith('.retrace'))).toEqual([])
  })

  it('runs with checkpoints deferred and their bound raised, so its record never folds the log back', async () => {
    threeChanges()
    const bound = () => databaseOf(ws.rt.store).pragma('wal_autocheckpoint', { simple: true })
    const seen: unknown[] = []
    await ws.rewinds.applyTurn(ws.writer.id, 1, { onProgress: () => void seen.push([ws.rt.store.walCheckpoints.deferred, bound()]) })
    expect(seen.length).toBeGreaterThan(0)
    for (const during of seen) expect(during).toEqual([true, 4 * 8192])
    expect([ws.rt.store.walCheckpoints.deferred, bound()]).toEqual([false, 8192])
  })

  it('can be undone, and a rewind of a rewind undoes back to before the first (R22)', async () => {
    threeChanges()
    const first = await ws.rewinds.applyTurn(ws.writer.id, 1)
    const undo = await ws.rewinds.undo(first.rewindId)
    expect(ws.text('keep.txt')).toBe('agent changed this\n')
    expect(ws.text('new/created.txt')).toBe('agent made this\n')
    expect(ws.text('gone.txt')).toBeNull()
    await ws.rewinds.undo(undo.rewindId)
    expect(ws.text('keep.txt')).toBe('original\n')
    expect(ws.rewinds.rewindsOfSession(ws.rt.store.sessions.require(ws.writer.id).rowId).map((r) => r.status)).toEqual(['undone', 'undone', 'applied'])
  })

  it('reports a same-size edit with a restored mtime as a conflict before writing anything (R5)', async () => {
    threeChanges()
    const path = join(ws.root, 'keep.txt')
    const { mtime, atime } = statSync(path)
    ws.user.write('keep.txt', 'Agent changed this\n') // same size, one byte differs
    utimesSync(path, atime, mtime)
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    expect(plan.items.find((i) => i.path.toString() === 'keep.txt')?.conflict).toBe('changed since the agent last wrote it')
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1) // default: skip conflicts
    expect(result.skipped.map((i) => i.path.toString())).toEqual(['keep.txt'])
    expect(ws.text('keep.txt')).toBe('Agent changed this\n')
    expect(ws.text('gone.txt')).toBe('to be deleted\n') // the rest still rewound
  })

  it('keeps both versions when asked, and overwrites only when asked', async () => {
    threeChanges()
    ws.user.write('keep.txt', 'my own edit\n')
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    const key = keyOf(checkRelPath('keep.txt'))
    await ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token, choices: new Map([[key, 'keep-both']]) })
    expect(ws.text('keep.txt')).toBe('original\n')
    expect(ws.text('keep.txt.retrace-kept')).toBe('my own edit\n')
  })

  it('never deletes a file the user created after the agent removed its own (R6)', async () => {
    threeChanges()
    ws.user.write('gone.txt', 'the user wrote a new one\n')
    ws.user.write('new/created.txt', 'the user rewrote it\n')
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(result.skipped.map((i) => i.path.toString()).sort()).toEqual(['gone.txt', 'new/created.txt'])
    expect(ws.text('gone.txt')).toBe('the user wrote a new one\n')
    expect(ws.text('new/created.txt')).toBe('the user rewrote it\n')
  })

  it('refuses the whole rewind if the disk changed after the preview (R17)', async () => {
    threeChanges()
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    ws.user.write('keep.txt', 'changed after the preview\n')
    await expect(ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token })).rejects.toMatchObject({ code: 'CONFLICT' })
    expect(ws.text('gone.txt')).toBeNull()
    expect(ws.text('keep.txt')).toBe('changed after the preview\n')
  })

  it('stops and reverts everything if a file changes while the rewind runs (R17)', async () => {
    threeChanges()
    await expect(
      ws.rewindsUnder({ afterStep: (index) => index === 0 && ws.user.write('keep.txt', 'an agent still writing\n') }).applyTurn(ws.writer.id, 1)
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('Every file was put back') as string })
    expect(ws.text('new/created.txt')).toBe('agent made this\n')
    expect(ws.text('keep.txt')).toBe('an agent still writing\n')
    expect(ws.text('gone.txt')).toBeNull()
  })

  it('restores the exec bit and binary content byte-exact (R11, R16)', async () => {
    const binary = Buffer.from([...Array(300_000).keys()].map((i) => (i * 7919) % 256))
    ws = agentWorkspace({ 'run.sh': '#!/bin/sh\necho hi\n' })
    ws.agent.turn()
    ws.agent.write('run.sh', '#!/bin/sh\necho changed\n', 0o755)
    ws.agent.write('data.bin', binary)
    ws.agent.turn()
    ws.agent.write('data.bin', Buffer.from('overwritten'))
    await ws.rewinds.applyTurn(ws.writer.id, 2)
    expect(ws.read('data.bin')?.equals(binary)).toBe(true)
    expect(lstatSync(join(ws.root, 'run.sh')).mode & 0o777).toBe(0o755)
    await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(lstatSync(join(ws.root, 'run.sh')).mode & 0o777).toBe(0o644)
    expect(ws.text('run.sh')).toBe('#!/bin/sh\necho hi\n')
  })

  it('round-trips a non-UTF-8 file name byte-exact (R15)', async () => {
    ws = agentWorkspace()
    const name = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74])
    ws.agent.turn()
    writeFileSync(Buffer.concat([Buffer.from(ws.root + '/'), name]), 'latin-1 name')
    ws.journal.recordToolChange({ workspaceId: ws.workspaceId, sessionRowId: ws.rt.store.sessions.require(ws.writer.id).rowId, turn: 1 }, { path: name, before: null, after: Buffer.from('latin-1 name') })
    await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(readdirSync(ws.root, { encoding: 'buffer' })).toEqual([])
    const [rewind] = ws.rewinds.rewindsOfSession(ws.rt.store.sessions.require(ws.writer.id).rowId)
    await ws.rewinds.undo(rewind?.id ?? '')
    expect(readdirSync(ws.root, { encoding: 'buffer' })).toEqual([name])
  })

  it('never writes through a symlinked folder that points outside the workspace (R12)', async () => {
    ws = agentWorkspace({ 'src/a.txt': 'inside\n', 'src/deep/b.txt': 'inside too\n', 'lib/c.txt': 'real folder\n' })
    ws.agent.turn()
    ws.agent.write('lib/c.txt', 'changed\n')
    ws.agent.write('src/a.txt', 'changed\n')
    ws.agent.write('src/deep/b.txt', 'changed\n')
    const outside = join(ws.root, '..', 'outside')
    mkdirSync(join(outside, 'deep'), { recursive: true })
    writeFileSync(join(outside, 'a.txt'), 'outside, must stay\n')
    // Someone replaces the folder by a link to elsewhere after the agent's turn.
    rmSync(join(ws.root, 'src'), { recursive: true })
    symlinkSync(outside, join(ws.root, 'src'))
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    // Each file under the link is refused, not only the first the plan looks at; the real folder's file is planned.
    expect(plan.items.map((item) => [item.path.toString(), item.refused === null ? item.action : /symbolic link/.test(item.refused)])).toEqual([
      ['lib/c.txt', 'restore'],
      ['src/a.txt', true],
      ['src/deep/b.txt', true]
    ])
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1, { defaultChoice: 'overwrite' })
    expect(result.refused).toHaveLength(2)
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('outside, must stay\n')
    expect(readdirSync(join(outside, 'deep'))).toEqual([])
    expect(ws.text('lib/c.txt')).toBe('real folder\n')
  })

  it('refuses hostile paths from journal rows before any I/O (R13)', async () => {
    ws = agentWorkspace({ 'Readme.md': 'a' })
    ws.agent.turn()
    ws.agent.write('Readme.md', 'b')
    const scope = databaseOf(ws.rt.store).prepare('SELECT id FROM journal_scopes LIMIT 1').pluck().get() as number
    const blob = databaseOf(ws.rt.store).prepare('SELECT hash FROM blobs LIMIT 1').pluck().get() as string
    const insert = databaseOf(ws.rt.store).prepare("INSERT INTO journal_entries (scope_id, op, path, kind_before, hash_before, observed, created_at) VALUES (?, 'delete', ?, 'file', ?, 'tool', 0)")
    const hostile = ['../escape.txt', '/etc/passwd', '.git/config', '.hg/hgrc', '.svn/wc.db', 'sub/.jj/repo/config.toml', 'a\\b']
    for (const path of hostile) insert.run(scope, Buffer.from(path), blob)
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    const refused = plan.items.filter((i) => i.refused).map((i) => i.path.toString())
    expect(refused.sort()).toEqual([...hostile].sort())
    await ws.rewinds.applyTurn(ws.writer.id, 1, { defaultChoice: 'overwrite' })
    expect(existsSync(join(ws.root, '..', 'escape.txt'))).toBe(false)
    for (const path of ['.hg', '.svn', 'sub', 'a\\b']) expect(existsSync(join(ws.root, path)), path).toBe(false)
    expect(ws.text('Readme.md')).toBe('a')
  })

  it.skipIf(process.platform === 'win32')('captures and rewinds names only Windows reserves, and Makefile beside makefile where the disk tells case apart (R14)', async () => {
    ws = agentWorkspace({ 'aux.ts': 'export {}\n', 'Makefile': 'all:\n', 'src/con.json': '{}' })
    expect(foldsCase(Buffer.from(ws.root))).toBe(false) // this machine's disk: two spellings, two files
    ws.agent.turn()
    ws.agent.write('aux.ts', 'export const changed = 1\n')
    ws.agent.write('Makefile', 'all: changed\n')
    ws.agent.write('makefile', 'lowercase:\n')
    ws.agent.write('src/con.json', '{"changed":true}')
    ws.agent.write('nul.txt', 'new\n')
    ws.agent.write('trailing.', 'new\n')
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    expect(plan.items.map((i) => [i.path.toString(), i.action, i.refused])).toEqual([
      ['aux.ts', 'restore', null],
      ['Makefile', 'restore', null],
      ['makefile', 'delete', null],
      ['src/con.json', 'restore', null],
      ['nul.txt', 'delete', null],
      ['trailing.', 'delete', null]
    ])
    await ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token })
    expect([ws.text('aux.ts'), ws.text('Makefile'), ws.text('makefile'), ws.text('src/con.json'), ws.text('nul.txt'), ws.text('trailing.')]).toEqual(['export {}\n', 'all:\n', null, '{}', null, null])
  })

  it('refuses exactly the files whose snapshots are missing, says which, and rewinds the rest', async () => {
    const large = Buffer.alloc(400_000, 'L')
    ws = agentWorkspace({ 'big.txt': large, 'small.txt': 'small before\n' })
    ws.agent.turn()
    ws.agent.write('big.txt', 'big after\n')
    ws.agent.write('small.txt', 'small after\n')
    const bigHash = databaseOf(ws.rt.store).prepare("SELECT hash FROM blobs WHERE storage = 'file'").pluck().get() as string
    ws.writer.closeTurn()
    const invalidated = () => ws.rt.store.checkpoints.list(ws.rt.store.sessions.require(ws.writer.id).rowId).map((c) => [c.turn, c.invalidated])
    expect(invalidated()).toEqual([[1, false]])
    rmSync(ws.journal.blobs.filePath(bigHash))
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(result.refused.map((i) => [i.path.toString(), i.refused])).toEqual([['big.txt', 'the saved snapshot of big.txt is missing from the store, so it cannot be restored']])
    expect(ws.text('big.txt')).toBe('big after\n')
    expect(ws.text('small.txt')).toBe('small before\n')
    // The checkpoint can never be fully restored again: the transcript shows it invalidated.
    expect(invalidated()).toEqual([[1, true]])
  })

  it('rolls everything back, naming the file, when a snapshot turns out corrupt while writing', async () => {
    const large = Buffer.alloc(400_000, 'L')
    ws = agentWorkspace({ 'big.txt': large, 'small.txt': 'small before\n' })
    ws.agent.turn()
    ws.agent.write('small.txt', 'small after\n')
    ws.agent.write('big.txt', 'big after\n')
    const bigHash = databaseOf(ws.rt.store).prepare("SELECT hash FROM blobs WHERE storage = 'file'").pluck().get() as string
    writeFileSync(ws.journal.blobs.filePath(bigHash), gzipSync(Buffer.alloc(400_000, 'X')))
    await expect(ws.rewinds.applyTurn(ws.writer.id, 1)).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/big\.txt.*does not match its hash.*put back/s) as string })
    expect(ws.text('big.txt')).toBe('big after\n')
    expect(ws.text('small.txt')).toBe('small after\n')
  })

  it('refuses a second rewind of the same workspace while one is running', async () => {
    threeChanges()
    const first = ws.rewinds.applyTurn(ws.writer.id, 1)
    await expect(ws.rewinds.applyTurn(ws.writer.id, 1)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('already running') as string })
    await first
    expect(ws.text('keep.txt')).toBe('original\n')
  })
})
