import { cpSync, lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, unlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { realFsOps, type FsOps } from '../workspace-fs'

/**
 * The workspace folder replaced while a rewind runs: renamed away, and a link to another folder
 * put at its path. That other folder here is a copy of the workspace (a clone, a backup): every
 * file the rewind checks there matches, so only the folder's identity can tell. Whatever the
 * rewind or its recovery does next, the other folder must end byte for byte as it was.
 */

const FILES = 40
const name = (i: number) => `src/f${String(i).padStart(2, '0')}.txt`

/** Turn 1 rewrote FILES files, created `created` files and deleted one. */
function workspaceAfterTurn(created: number): AgentWorkspace {
  const initial: Record<string, string> = { 'old/gone.txt': 'deleted by the agent\n' }
  for (let i = 0; i < FILES; i++) initial[name(i)] = `before ${i}\n`
  const ws = agentWorkspace(initial)
  ws.agent.turn()
  for (let i = 0; i < FILES; i++) ws.agent.write(name(i), `after ${i}\n`)
  for (let i = 0; i < created; i++) ws.agent.write(`new/c${i}.txt`, `created ${i}\n`)
  ws.agent.remove('old/gone.txt')
  return ws
}

/** Every entry under `root`: kind, mode and content (or link text). */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const path = join(root, entry)
    const stats = lstatSync(path)
    const mode = (stats.mode & 0o7777).toString(8)
    out[entry] = stats.isDirectory() ? `dir ${mode}` : stats.isSymbolicLink() ? `link ${readlinkSync(path)}` : `file ${mode} ${readFileSync(path, 'base64')}`
  }
  return out
}

function scene(created: number) {
  const ws = workspaceAfterTurn(created)
  const other = join(dirname(ws.root), 'other')
  cpSync(ws.root, other, { recursive: true })
  const otherBefore = tree(other)
  const afterTurn = tree(ws.root)
  const moved = `${ws.root}.moved`
  return {
    ws,
    other,
    otherBefore,
    afterTurn,
    moved,
    /** The workspace folder renamed away, and a link to the other folder at its path. */
    swap() {
      renameSync(ws.root, moved)
      symlinkSync(other, ws.root)
    },
    /** The folder back where it was. */
    putBack() {
      unlinkSync(ws.root)
      renameSync(moved, ws.root)
    }
  }
}

/** The real file-system calls; just before call number `at`, the workspace folder is swapped. */
function swappingOps(at: number, swap: () => void): FsOps {
  let calls = 0
  const ops = {} as Record<string, unknown>
  for (const key of Object.keys(realFsOps) as (keyof FsOps)[]) {
    const real = realFsOps[key] as (...args: unknown[]) => Promise<void>
    ops[key] = (...args: unknown[]) => {
      if (++calls === at) swap()
      return real(...args)
    }
  }
  return ops as unknown as FsOps
}

const REPLACED = /the workspace folder .*project was replaced while/

describe('a workspace folder replaced by a link during a rewind (R34)', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('stops one by one, never writes in the other folder, and recovery waits for the folder to come back (R34)', async () => {
    const s = scene(2)
    ws = s.ws
    const rewinds = ws.rewindsUnder({ afterStep: (index) => index === 3 && s.swap(), batchFrom: Number.POSITIVE_INFINITY })
    await expect(rewinds.applyTurn(ws.writer.id, 1)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(REPLACED) as unknown })
    expect(tree(s.other)).toEqual(s.otherBefore)

    // Still swapped: recovery refuses, and says why.
    const refused = await ws.rewinds.recover()
    expect(refused.rolledBack).toEqual([])
    expect(refused.failed.map((failed) => failed.reason)).toEqual([expect.stringMatching(REPLACED)])
    expect(tree(s.other)).toEqual(s.otherBefore)

    // Back, then swapped again while recovery runs: it stops there too.
    s.putBack()
    const interrupted = await ws.rewindsUnder({ ops: swappingOps(2, () => s.swap()) }).recover()
    expect(interrupted.failed.map((failed) => failed.reason)).toEqual([expect.stringMatching(REPLACED)])
    expect(tree(s.other)).toEqual(s.otherBefore)

    // Back for good: the rewind is rolled back in the workspace itself.
    s.putBack()
    const recovered = await ws.rewinds.recover()
    expect(recovered.rolledBack).toHaveLength(1)
    expect(tree(ws.root)).toEqual(s.afterTurn)
    expect(tree(s.other)).toEqual(s.otherBefore)
  })

  it('stops on the writer threads too, leaving the other folder as it was (R34)', async () => {
    const s = scene(1) // one delete on the main thread, then the writes on the lanes
    ws = s.ws
    const rewinds = ws.rewindsUnder({ afterStep: (index) => index === 0 && s.swap(), batchFrom: 1 })
    await expect(rewinds.applyTurn(ws.writer.id, 1)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(REPLACED) as unknown })
    await ws.settled()
    expect(tree(s.other)).toEqual(s.otherBefore)
    s.putBack()
    const recovered = await ws.rewinds.recover()
    expect(recovered.rolledBack).toHaveLength(1)
    expect(tree(ws.root)).toEqual(s.afterTurn)
  })

  it('refuses a rewind whose workspace folder was replaced after its preview (R34)', async () => {
    const s = scene(1)
    ws = s.ws
    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    s.swap()
    await expect(ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('The workspace folder was replaced since the preview was made') as unknown })
    expect(tree(s.other)).toEqual(s.otherBefore)
    s.putBack()
    expect(tree(ws.root)).toEqual(s.afterTurn)
  })
})
