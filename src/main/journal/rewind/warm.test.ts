import { afterEach, describe, expect, it } from 'vitest'
import { blobWriters } from '../blob-writers'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { helperShells } from '../testing/helper-shells'
import { realFsOps, type FsOps } from '../workspace-fs'
import { BATCH_FROM_WRITES, BATCH_FROM_WRITES_WARM } from './apply'
import { LANES } from './threaded-replace'

// This file's process starts with the writer threads not running: the order of the steps below matters.

describe.skipIf(process.platform !== 'linux')('the writer threads of a rewind, started when it is planned', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('are not started for a small plan; are for a larger one; a rewind uses them once they run, not before', async () => {
    const count = BATCH_FROM_WRITES_WARM + 8
    expect(count).toBeLessThan(BATCH_FROM_WRITES) // too few to be worth starting the threads for
    const names = Array.from({ length: count }, (_, i) => `src/file-${i}.txt`)
    ws = agentWorkspace(Object.fromEntries(names.map((name) => [name, 'before\n'])))
    ws.agent.turn()
    for (const name of names) ws.agent.write(name, 'turn 1\n')
    ws.agent.turn()
    ws.agent.write('src/file-0.txt', 'turn 2\n')
    let writtenOnMain = 0
    const ops: FsOps = { ...realFsOps, writeBlob: (...args) => (writtenOnMain++, realFsOps.writeBlob(...args)) }

    await ws.rewinds.planTurn(ws.writer.id, 2) // one file: nothing to start
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(helperShells()).toHaveLength(0)
    expect(blobWriters.ready(1)).toBe(false)

    // Planned and applied at once: the threads start with the plan but are not running yet, so
    // the files are written one by one on the main thread.
    const rewind = await ws.rewindsUnder({ ops }).applyTurn(ws.writer.id, 1)
    expect(writtenOnMain).toBe(count)
    expect(ws.text('src/file-7.txt')).toBe('before\n')

    // Once they run (and the flusher's helper with them), the same number of files goes to the lanes.
    await expect.poll(() => blobWriters.ready(LANES), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => helperShells().length, { timeout: 10_000 }).toBe(1)
    writtenOnMain = 0
    await ws.rewindsUnder({ ops }).undo(rewind.rewindId)
    expect(writtenOnMain).toBe(0)
    expect(ws.text('src/file-0.txt')).toBe('turn 2\n')
    expect(ws.text('src/file-7.txt')).toBe('turn 1\n')
    expect(helperShells()).toHaveLength(1)
  })
})
