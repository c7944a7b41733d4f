import { spawnSync } from 'node:child_process'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from './testing/agent-workspace'
import { writeIntent } from './rewind/intent-log'
import { isProcessAlive } from './process-owner'

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  return Number(child.stdout)
}

describe('start-up leaves a live process\'s work alone', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('sweeps only temp files whose writer is gone', () => {
    ws = agentWorkspace()
    const tmp = ws.journal.blobs.tempDir
    const dead = deadPid()
    expect(isProcessAlive(dead)).toBe(false)
    writeFileSync(join(tmp, `${process.pid}-live.tmp`), 'still being written')
    writeFileSync(join(tmp, `${dead}-dead.tmp`), 'abandoned')
    writeFileSync(join(tmp, 'no-owner.tmp'), 'abandoned')
    expect(ws.journal.blobs.cleanTemp()).toBe(2)
    expect(readdirSync(tmp)).toEqual([`${process.pid}-live.tmp`])
  })

  it('does not roll back a rewind another live process is applying', async () => {
    ws = agentWorkspace({ 'a.txt': 'before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'after\n')
    const [entry] = ws.journal.repo.entriesOfScope(ws.journal.repo.turnScope(ws.rt.store.sessions.require(ws.writer.id).rowId, 1)?.id ?? 0)
    if (!entry) throw new Error('no journal entry')
    const step = { kind: 'write' as const, path: entry.path, pre: entry.after, post: entry.before }
    // This process "is applying" a rewind whose first step already ran.
    writeIntent(ws.rt.store.dataDir, { version: 1, rewindId: 'live-rewind', root: Buffer.from(ws.root).toString('base64'), steps: [step] })
    writeFileSync(join(ws.root, 'a.txt'), 'before\n')
    expect((await ws.rewinds.recover()).rolledBack).toEqual([])
    expect(ws.text('a.txt')).toBe('before\n')
    expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual(['live-rewind.json'])
  })
})
