import { statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { TurnCapture } from '../turn-capture'

// A rewind proves a file is still what its plan saw by an unchanged lstat (ctime, mtime, size,
// inode, device, mode) instead of hashing it again, and its plan takes a file's hash from the
// last scan when the stat still matches. Both only for files changed longer ago than the racy
// window (100 ms): these tests let the files settle first, so those shortcuts are really taken.

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 250))

/** A whole second: an mtime that utimes can put back exactly (it cannot restore nanoseconds). */
const MTIME_S = 1_700_000_000

function wholeSecondMtime(ws: AgentWorkspace, ...paths: string[]): void {
  for (const path of paths) utimesSync(join(ws.root, path), MTIME_S, MTIME_S)
}

/** Same size, one byte different, the whole-second mtime put back: only ctime (and the content) tell. */
function sneakyEdit(ws: AgentWorkspace, path: string, content: string): void {
  const absolute = join(ws.root, path)
  const before = statSync(absolute, { bigint: true })
  expect(BigInt(Buffer.byteLength(content))).toBe(before.size)
  ws.user.write(path, content)
  wholeSecondMtime(ws, path)
  const after = statSync(absolute, { bigint: true })
  expect([after.mtimeNs, after.size, after.ino]).toEqual([before.mtimeNs, before.size, before.ino])
}

describe('rewind proofs without re-reading', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('still catches a same-size edit with a restored mtime made between the plan and the replace', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'b.txt': 'b before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after!\n')
    ws.agent.write('b.txt', 'b after!\n')
    wholeSecondMtime(ws, 'a.txt', 'b.txt')
    await settle()
    await expect(
      ws.rewindsUnder({ afterStep: (index) => index === 0 && sneakyEdit(ws, 'b.txt', 'B after!\n') }).applyTurn(ws.writer.id, 1)
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('Every file was put back') as string })
    expect(ws.text('a.txt')).toBe('a after!\n')
    expect(ws.text('b.txt')).toBe('B after!\n')
  })

  it('still catches it on the writer threads, where a large rewind replaces files', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'b.txt': 'b before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after!\n')
    ws.agent.write('b.txt', 'b after!\n')
    ws.agent.write('made.txt', 'made in the turn\n') // its delete runs first, on the main thread
    wholeSecondMtime(ws, 'a.txt', 'b.txt')
    await settle()
    await expect(
      ws.rewindsUnder({ batchFrom: 1, afterStep: (index) => index === 0 && sneakyEdit(ws, 'b.txt', 'B after!\n') }).applyTurn(ws.writer.id, 1)
    ).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('b.txt changed while the rewind was running') as string })
    expect(ws.text('a.txt')).toBe('a after!\n')
    expect(ws.text('b.txt')).toBe('B after!\n')
    expect(ws.text('made.txt')).toBe('made in the turn\n')
  })

  it('rewinds settled files as usual', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'dir/b.txt': 'b before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after\n')
    ws.agent.write('dir/b.txt', 'b after, longer\n')
    await settle()
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(result.steps).toHaveLength(2)
    expect(ws.text('a.txt')).toBe('a before\n')
    expect(ws.text('dir/b.txt')).toBe('b before\n')
  })

  it('plans from the file, not from the last scan, once the file changed after that scan', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'b.txt': 'b before\n' })
    const capture = new TurnCapture(ws.rt.store, ws.journal)
    await settle()
    ws.agent.turn()
    await capture.begin(ws.workspaceId)
    ws.user.write('a.txt', 'a after\n') // a shell edit, seen only by the scan
    ws.user.write('b.txt', 'b after\n')
    wholeSecondMtime(ws, 'a.txt', 'b.txt')
    await settle() // so the scan records trusted stats for both
    const { changes } = await capture.end(ws.workspaceId, { sessionRowId: ws.rt.store.sessions.require(ws.writer.id).rowId, turn: 1 })
    expect(changes.map((change) => change.path.toString()).sort()).toEqual(['a.txt', 'b.txt'])

    // a.txt is unchanged since the scan: planned from the scan's hash. b.txt is not, though
    // only its ctime says so (and it settles, so not even its recent ctime gives it away).
    sneakyEdit(ws, 'b.txt', 'B after\n')
    await settle()
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    expect(plan.items.map((item) => [item.path.toString(), item.action, item.conflict])).toEqual([
      ['a.txt', 'restore', null],
      ['b.txt', 'restore', 'changed since the agent last wrote it']
    ])
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1) // conflicts skipped by default
    expect(result.skipped.map((item) => item.path.toString())).toEqual(['b.txt'])
    expect(ws.text('a.txt')).toBe('a before\n')
    expect(ws.text('b.txt')).toBe('B after\n')
  })
})
