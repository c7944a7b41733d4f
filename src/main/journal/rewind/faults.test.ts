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
    await ws.rewindsUnder({ ops }).applyTurn(ws.writer.id, 1)
    expect(ops.calls).toBeGreaterThan(8)
    expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null, 'x.sh': '#!/bin/sh\n' })
  })

  // Batched: what a large rewind does, here from the first file. The calls counted are the
  // main thread's (the delete, the last flush); the lanes' are in the next tests.
  for (const [mode, batchFrom] of [['one by one', Number.POSITIVE_INFINITY], ['batched', 1]] as const) {
    for (const code of ['EIO', 'EACCES', 'EPERM', 'EBUSY', 'ENOSPC']) {
      it(`leaves the workspace wholly as it was when call N fails with ${code}, for every N (${mode})`, async () => {
        ws = workspaceAfterTurn()
        const counter = failingOps(Number.POSITIVE_INFINITY, code)
        await ws.rewindsUnder({ ops: counter, batchFrom }).applyTurn(ws.writer.id, 1)
        const total = counter.calls
        ws.dispose()

        for (let failAt = 1; failAt <= total; failAt++) {
          ws = workspaceAfterTurn()
          const after = snapshot(ws)
          const error = await ws.rewindsUnder({ ops: failingOps(failAt, code), batchFrom }).applyTurn(ws.writer.id, 1).then(
            () => null,
            (e: unknown) => e as { code: string; message: string }
          )
          await ws.settled() // a complete rewind removes the files it set aside after returning
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

  // A large rewind replaces regular files on the writer threads, in lanes (ThreadedReplace):
  // their file-system calls are not the FsOps seam's, so faults are injected in the lane.
  for (const code of ['EIO', 'EACCES', 'ENOSPC']) {
    it(`leaves the workspace wholly as it was when a lane's call N fails with ${code}, for every N of each lane`, async () => {
      let failures = 0
      for (const lane of [0, 1]) {
        for (let call = 1; ; call++) {
          ws = workspaceAfterTurn()
          const after = snapshot(ws)
          const error = await ws.rewindsUnder({ batchFrom: 1, threadFault: { lane, call, code } }).applyTurn(ws.writer.id, 1).then(
            () => null,
            (e: unknown) => e as { code: string; message: string }
          )
          await ws.settled() // a complete rewind removes the files it set aside after returning
          const temps = readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))
          expect(temps, `lane ${lane} call ${call}: no temp files`).toEqual([])
          expect(readdirSync(`${ws.rt.store.dataDir}/intents`), `lane ${lane} call ${call}: no open intent`).toEqual([])
          if (error === null) {
            // Past the lane's last call (or no such lane on this machine): the rewind completed.
            expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null })
            ws.dispose()
            break
          }
          failures += 1
          expect(error.code, `lane ${lane} call ${call}`).toBe('IO_ERROR')
          expect(error.message).toContain(code)
          expect(error.message).toContain('Every file was put back')
          expect(snapshot(ws), `lane ${lane} call ${call}: wholly before the rewind`).toEqual(after)
          ws.dispose()
        }
      }
      expect(failures).toBeGreaterThan(5)
      ws = workspaceAfterTurn() // for afterEach
    })
  }

  // The lanes' flushes run on the flusher thread (blob-writer/flusher.mts serveFlushes).
  it('leaves the workspace wholly as it was when any flush of the lanes fails', async () => {
    let failures = 0
    for (let flush = 1; ; flush++) {
      ws = workspaceAfterTurn()
      const after = snapshot(ws)
      const error = await ws.rewindsUnder({ batchFrom: 1, flushFault: { flush, code: 'EIO' } }).applyTurn(ws.writer.id, 1).then(
        () => null,
        (e: unknown) => e as { code: string; message: string }
      )
      await ws.settled() // a complete rewind removes the files it set aside after returning
      const temps = readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))
      expect(temps, `flush ${flush}: no temp files`).toEqual([])
      expect(readdirSync(`${ws.rt.store.dataDir}/intents`), `flush ${flush}: no open intent`).toEqual([])
      if (error === null) {
        expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null })
        break
      }
      failures += 1
      expect(error.code, `flush ${flush}`).toBe('IO_ERROR')
      expect(error.message).toMatch(/EIO: injected failure.*Every file was put back/)
      expect(snapshot(ws), `flush ${flush}: wholly before the rewind`).toEqual(after)
      ws.dispose()
    }
    expect(failures).toBeGreaterThan(0)
  })

  it('a batched rewind replaces its regular files on the lanes, and flushes the file system instead of fsyncing each file', async () => {
    ws = workspaceAfterTurn()
    const calls: string[] = []
    const ops = { ...realFsOps }
    ops.writeBlob = (blobs, hash, path, mode, options) => {
      calls.push('writeBlob')
      return realFsOps.writeBlob(blobs, hash, path, mode, options)
    }
    ops.syncFileSystem = (path) => {
      calls.push('syncFileSystem')
      return realFsOps.syncFileSystem(path)
    }
    await ws.rewindsUnder({ ops, batchFrom: 1 }).applyTurn(ws.writer.id, 1)
    expect(snapshot(ws)).toEqual({ ...BEFORE, 'd/new.txt': null })
    // No file written on the main thread; the renames made durable by one flush at the end
    // (the lanes' temps are flushed on the flusher thread, before they are renamed).
    expect(calls).toEqual(['syncFileSystem'])
  })
})
