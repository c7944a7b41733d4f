import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from './testing/agent-workspace'
import { intentDir, writeIntent } from './rewind/intent-log'
import { currentOwner, isOwnerAlive, isProcessAlive, processStart } from './process-owner'

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

  /** A rewind of a.txt (after → before) whose only step already ran, its intent log owned by `owner`. */
  function interruptedRewindOwnedBy(owner: { pid: number; started?: string }): void {
    ws = agentWorkspace({ 'a.txt': 'before\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'after\n')
    const [entry] = ws.journal.repo.entriesOfScope(ws.journal.repo.turnScope(ws.rt.store.sessions.require(ws.writer.id).rowId, 1)?.id ?? 0)
    if (!entry) throw new Error('no journal entry')
    const step = { kind: 'write' as const, path: entry.path, pre: entry.after, post: entry.before }
    writeIntent(ws.rt.store.dataDir, { version: 1, rewindId: 'other-rewind', root: Buffer.from(ws.root).toString('base64'), steps: [step] })
    const file = join(intentDir(ws.rt.store.dataDir), 'other-rewind.json')
    const { pid: _pid, started: _started, ...intent } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; started?: string }
    writeFileSync(file, JSON.stringify({ ...intent, ...owner }))
    writeFileSync(join(ws.root, 'a.txt'), 'before\n') // the step's result
  }

  /** Another process, alive until killed. */
  function liveProcess(): ChildProcess {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    children.push(child)
    return child
  }
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL')
  })

  it('does not roll back a rewind another live process is applying', async () => {
    const other = liveProcess()
    const pid = other.pid ?? 0
    await expect.poll(() => processStart(pid)).not.toBeNull()
    interruptedRewindOwnedBy({ pid, started: processStart(pid) ?? '' })
    const report = await ws.rewinds.recover()
    expect(report.rolledBack).toEqual([])
    expect(report.runningElsewhere).toEqual([expect.objectContaining({ rewindId: 'other-rewind', pid })])
    expect(ws.text('a.txt')).toBe('before\n')
    expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual(['other-rewind.json'])
    // Nor may a preview or a rewind start in that workspace meanwhile.
    await expect(ws.rewinds.planTurn(ws.writer.id, 1)).rejects.toThrow(`Another Retrace process (pid ${pid}) is rewinding files in this workspace`)
  })

  // The pid of a crashed Retrace process is soon another process's: a pid alone would leave the
  // interrupted rewind pending for as long as that process lives.
  it('recovers a rewind whose pid now belongs to another process (a different start)', async () => {
    const other = liveProcess()
    const pid = other.pid ?? 0
    await expect.poll(() => processStart(pid)).not.toBeNull()
    interruptedRewindOwnedBy({ pid, started: `${processStart(pid) ?? ''}-earlier-process` })
    expect(isProcessAlive(pid)).toBe(true)
    expect((await ws.rewinds.recover()).rolledBack).toEqual(['other-rewind'])
    expect(ws.text('a.txt')).toBe('after\n')
    expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual([])
  })

  it('knows this process by its pid and start, and a process that exited as gone', () => {
    const self = currentOwner()
    expect(self.pid).toBe(process.pid)
    if (process.platform === 'linux') expect(self.started).toMatch(/^[0-9a-f-]{36}:\d+$/)
    expect(isOwnerAlive(self)).toBe(true)
    expect(isOwnerAlive({ pid: deadPid() })).toBe(false)
    if (self.started !== undefined) expect(isOwnerAlive({ pid: process.pid, started: `${self.started}0` })).toBe(false)
  })
})
