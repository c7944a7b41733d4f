import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { databaseOf } from '../../store/raw-database'

const ROOT = resolve(__dirname, '../../../..')
const CHILD = join(__dirname, 'testing/crash-child.ts')

function runChild(ws: AgentWorkspace, killAt: number, batchFrom: number | null, lane: number | 'flush' | 'returned' | null = null) {
  const batch = batchFrom === null ? [] : [String(batchFrom), ...(lane === null ? [] : [typeof lane === 'number' ? `lane:${lane}` : lane])]
  return spawnSync(process.execPath, [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), CHILD, ws.rt.store.dataDir, ws.writer.id, String(killAt), ...batch], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000
  })
}

function workspaceAfterTurn(): AgentWorkspace {
  const ws = agentWorkspace({ 'a.txt': 'a before\n', 'dir/b.txt': 'b before\n', 'c.txt': 'c before\n' })
  ws.agent.turn()
  ws.agent.write('a.txt', 'a after\n')
  ws.agent.write('dir/b.txt', 'b after\n')
  ws.agent.remove('c.txt')
  ws.agent.write('new/d.txt', 'created\n')
  return ws
}

const files = (ws: AgentWorkspace) => ({ a: ws.text('a.txt'), b: ws.text('dir/b.txt'), c: ws.text('c.txt'), d: ws.text('new/d.txt') })
const AFTER_TURN = { a: 'a after\n', b: 'b after\n', c: null, d: 'created\n' }

describe('a rewind killed at every file-system call (R1)', () => {
  // Batched: what a large rewind does. Its main thread's calls are only the delete and the last
  // flush here; the lanes' are killed at in the next test.
  it.each([
    ['one by one', null],
    ['batched', 1]
  ] as const)('is rolled back at start-up: no torn file, no temp file, database intact (%s)', async (_mode, batchFrom) => {
    const probe = workspaceAfterTurn()
    const clean = runChild(probe, 0, batchFrom)
    probe.dispose()
    const total = Number(/completed after (\d+) calls/.exec(clean.stdout)?.[1])
    expect(total, clean.stderr).toBeGreaterThan(batchFrom === null ? 5 : 1)

    for (let killAt = 1; killAt <= total; killAt++) {
      const ws = workspaceAfterTurn()
      try {
        const child = runChild(ws, killAt, batchFrom)
        expect(child.signal, `kill at call ${killAt}: ${child.stderr}`).toBe('SIGKILL')
        await expectRolledBack(ws, `kill at ${killAt}`)
      } finally {
        ws.dispose()
      }
    }
  }, 180_000)

  // A large rewind's regular files are replaced on the writer threads (ThreadedReplace): each
  // lane is killed at each of its own calls in turn, until it has no more.
  it('is rolled back at start-up when killed at any call of a lane', async () => {
    let kills = 0
    let setAsideSeen = 0
    for (const lane of [0, 1]) {
      for (let killAt = 1; ; killAt++) {
        const ws = workspaceAfterTurn()
        try {
          const child = runChild(ws, killAt, 1, lane)
          if (child.signal === null) {
            expect(child.stdout, child.stderr).toMatch(/completed/) // past the lane's last call, or no such lane here
            break
          }
          expect(child.signal, `lane ${lane}, kill at call ${killAt}: ${child.stderr}`).toBe('SIGKILL')
          kills += 1
          // Killed between setting a file aside and renaming over it: the link holds the file's content.
          for (const name of setAsideIn(ws)) {
            expect(Object.values(AFTER_TURN), `lane ${lane}, kill at ${killAt}: ${name}`).toContain(readFileSync(join(ws.root, name), 'utf8'))
            setAsideSeen += 1
          }
          // Lanes start writing temps while the rewind is being recorded: killed that early, it has no row yet (and had changed nothing).
          await expectRolledBack(ws, `lane ${lane}, kill at ${killAt}`, true)
        } finally {
          ws.dispose()
        }
      }
    }
    expect(kills).toBeGreaterThan(5)
    expect(setAsideSeen, 'a kill came between a link and its rename').toBeGreaterThan(0)
  }, 180_000)

  it('keeps a rewind killed after it returned, and removes at start-up the files it set aside', async () => {
    const ws = workspaceAfterTurn()
    try {
      const child = runChild(ws, 0, 1, 'returned')
      expect(child.signal, child.stderr).toBe('SIGKILL')
      expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual([expect.stringMatching(/\.applied$/) as string])
      const report = await ws.rewinds.recover()
      expect(report).toMatchObject({ rolledBack: [], swept: [expect.any(String)], failed: [] })
      expect(files(ws)).toEqual({ a: 'a before\n', b: 'b before\n', c: 'c before\n', d: null })
      expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))).toEqual([])
      expect(databaseOf(ws.rt.store).prepare('SELECT status FROM rewinds').pluck().all()).toEqual(['applied'])
      expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual([])
    } finally {
      ws.dispose()
    }
  }, 60_000)

  it('is rolled back at start-up when killed at any flush the lanes ask for', async () => {
    let kills = 0
    for (let flush = 1; ; flush++) {
      const ws = workspaceAfterTurn()
      try {
        const child = runChild(ws, flush, 1, 'flush')
        if (child.signal === null) {
          expect(child.stdout, child.stderr).toMatch(/completed/) // past the last flush
          break
        }
        expect(child.signal, `kill at flush ${flush}: ${child.stderr}`).toBe('SIGKILL')
        kills += 1
        await expectRolledBack(ws, `kill at flush ${flush}`, true)
      } finally {
        ws.dispose()
      }
    }
    expect(kills).toBeGreaterThan(0)
  }, 60_000)
})

const setAsideIn = (ws: AgentWorkspace): string[] => readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('-replaced'))

async function expectRolledBack(ws: AgentWorkspace, where: string, mayPrecedeRecord = false): Promise<void> {
  expect(readdirSync(join(ws.rt.store.dataDir, 'intents')), `${where}: intent left open`).toHaveLength(1)
  const report = await ws.rewinds.recover()
  expect(report.rolledBack, where).toHaveLength(1)
  expect(files(ws), `${where}: every file as before the rewind`).toEqual(AFTER_TURN)
  const leftovers = readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('.retrace-tmp'))
  expect(leftovers, `${where}: temp files`).toEqual([])
  expect(databaseOf(ws.rt.store).pragma('integrity_check', { simple: true })).toBe('ok')
  const statuses = databaseOf(ws.rt.store).prepare('SELECT status FROM rewinds').pluck().all()
  if (!(mayPrecedeRecord && statuses.length === 0)) expect(statuses, where).toEqual(['rolled_back'])
  expect(readdirSync(join(ws.rt.store.dataDir, 'intents'))).toEqual([])
  // And the rewind can simply be done again.
  await ws.rewinds.applyTurn(ws.writer.id, 1)
  expect(files(ws)).toEqual({ a: 'a before\n', b: 'b before\n', c: 'c before\n', d: null })
}
