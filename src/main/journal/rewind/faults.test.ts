import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { realFsOps, type FsOps } from '../workspace-fs'

/** The real file-system calls, except that call number `failAt` fails once with `code`. */
function failingOps(failAt: number, code: string): FsOps & { calls: number } {
  const ops = { calls: 0 } as FsOps & { calls: number }
  for (const name of Object.keys(realFsOps) as (keyof FsOps)[]) {
    const real = realFsOps[name] as (...args: unknown[]) => Promise<void>
    ;(ops as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      ops.calls += 1
      if (ops.calls === failAt) throw Object.assign(new Error(`${code}: injected failure`), { code })
      return real(...args)
    }
  }
  return ops
}

const BEFORE = { 'a.txt': 'a before\n', 'b/b.txt': 'b before\n', 'c.txt': 'c before\n', 'x.sh': '#!/bin/sh\n' }

function workspaceAfterTurn(): AgentWorkspace {
  const ws = agentWorkspace(BEFORE)
  ws.agent.turn()
  ws.agent.write('a.txt', 'a after\n')
  ws.agent.write('b/b.txt', 'b after, longer than before\n')
  ws.agent.remove('c.txt')
  ws.agent.write('d/new.txt', 'created by the agent\n')
  ws.agent.write('x.sh', '#!/bin/sh\n', 0o755)
  return ws
}

const snapshot = (ws: AgentWorkspace) => ({
  'a.txt': ws.text('a.txt'),
  'b/b.txt': ws.text('b/b.txt'),
  'c.txt': ws.text('c.txt'),
  'd/new.txt': ws.text('d/new.txt'),
  'x.sh': ws.text('x.sh')
})

describe('I/O errors during a rewind (R3, R10)', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('counts the file-system calls of a clean rewind', async () => {
    ws = workspaceAfterTurn()
    const ops = failingOps(Number.POSITIVE_INFINITY, 'EIO')
    await ws.rewinds.applyTurn(ws.writer.id, 1, { ops })
    expect(ops.calls).toBeGreaterThan(8)
    expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null, 'x.sh': '#!/bin/sh\n' })
  })

  // Batched: the temp files written on the blob writer threads and made durable by flushing
  // the file system (what a large rewind does), here from the first file.
  for (const [mode, batchFrom] of [['one by one', Number.POSITIVE_INFINITY], ['batched', 1]] as const) {
    for (const code of ['EIO', 'EACCES', 'EPERM', 'EBUSY', 'ENOSPC']) {
      it(`leaves the workspace wholly as it was when call N fails with ${code}, for every N (${mode})`, async () => {
        ws = workspaceAfterTurn()
        const counter = failingOps(Number.POSITIVE_INFINITY, code)
        await ws.rewinds.applyTurn(ws.writer.id, 1, { ops: counter, batchFrom })
        const total = counter.calls
        ws.dispose()

        for (let failAt = 1; failAt <= total; failAt++) {
          ws = workspaceAfterTurn()
          const after = snapshot(ws)
          const error = await ws.rewinds.applyTurn(ws.writer.id, 1, { ops: failingOps(failAt, code), batchFrom }).then(
            () => null,
            (e: unknown) => e as { code: string; message: string }
          )
          const state = snapshot(ws)
          if (error) {
            expect(error.code, `call ${failAt}`).toBe('IO_ERROR')
            expect(error.message).toContain(code)
            expect(error.message).toContain('Every file was put back')
            expect(state, `call ${failAt}: wholly before the rewind`).toEqual(after)
          } else {
            // A failure in a step's cleanup path (e.g. removing an already-gone temp) may be harmless.
            expect(state, `call ${failAt}: wholly after the rewind`).toEqual({ ...BEFORE, 'd/new.txt': null })
          }
          expect(readdirSync(ws.root).filter((name) => name.startsWith('.retrace-tmp')), `call ${failAt}: no temp files`).toEqual([])
          expect(readdirSync(`${ws.rt.store.dataDir}/intents`), `call ${failAt}: no open intent`).toEqual([])
          if (failAt < total) ws.dispose()
        }
      })
    }
  }

  it('a batched rewind flushes the file system instead of fsyncing each file, and writes on the writer threads', async () => {
    ws = workspaceAfterTurn()
    const calls: { name: string; durable?: boolean | undefined }[] = []
    const ops = { ...realFsOps }
    ops.writeBlob = (blobs, hash, path, mode, options) => {
      calls.push({ name: 'writeBlob', durable: options?.durable })
      return realFsOps.writeBlob(blobs, hash, path, mode, options)
    }
    ops.syncFileSystem = (path) => {
      calls.push({ name: 'syncFileSystem' })
      return realFsOps.syncFileSystem(path)
    }
    await ws.rewinds.applyTurn(ws.writer.id, 1, { ops, batchFrom: 1 })
    expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null })
    const writes = calls.filter((call) => call.name === 'writeBlob')
    expect(writes.length).toBeGreaterThanOrEqual(3)
    expect(writes.every((call) => call.durable === false)).toBe(true)
    // At least one flush before the renames, and one after them.
    expect(calls.filter((call) => call.name === 'syncFileSystem').length).toBeGreaterThanOrEqual(2)
  })
})
