import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { realFsOps, type FsOps } from '../workspace-fs'

/** The real calls, except that the last write of a rewind (the link that puts its last file in place: replace-file.ts) fails. */
function failingLastPlacement(placements: number): FsOps {
  let seen = 0
  return {
    ...realFsOps,
    link: async (from, to) => {
      seen += 1
      if (seen === placements) throw Object.assign(new Error('EIO: injected failure'), { code: 'EIO' })
      return realFsOps.link(from, to)
    }
  }
}

const mode = (ws: AgentWorkspace, path: string) => statSync(join(ws.root, path)).mode & 0o7777

describe('folders a rewind touches (R9)', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('leaves a folder that existed before the checkpoint, with its mode, when the rewind empties it; undo keeps it so', async () => {
    ws = agentWorkspace({ 'keep.txt': 'x\n' })
    mkdirSync(join(ws.root, 'logs'))
    chmodSync(join(ws.root, 'logs'), 0o750)
    await new Promise((resolve) => setTimeout(resolve, 30)) // the folder is older than the prompt beyond any clock tick
    ws.agent.turn()
    ws.agent.write('logs/run.txt', 'the agent logged this\n')
    ws.agent.write('made/by/agent.txt', 'in folders the agent made\n')
    const { rewindId } = await ws.rewinds.applyTurn(ws.writer.id, 1)
    expect(ws.text('logs/run.txt')).toBeNull()
    expect(existsSync(join(ws.root, 'logs')), 'the folder was there before the turn').toBe(true)
    expect(mode(ws, 'logs')).toBe(0o750)
    expect(existsSync(join(ws.root, 'made')), 'the folders the agent made went with its file').toBe(false)

    await ws.rewinds.undo(rewindId)
    expect(ws.text('logs/run.txt')).toBe('the agent logged this\n')
    expect(mode(ws, 'logs')).toBe(0o750)
    expect(ws.text('made/by/agent.txt')).toBe('in folders the agent made\n')
  })

  it('removes the folders a rolled-back rewind made, and no other', async () => {
    ws = agentWorkspace({ 'deep/er/gone.txt': 'restored in folders the rewind makes\n', 'a.txt': 'a before\n' })
    mkdirSync(join(ws.root, 'empty-before'))
    ws.agent.turn()
    ws.agent.remove('deep/er/gone.txt')
    ws.agent.write('a.txt', 'a after\n')
    // The agent's turn left `deep/er` empty, and a shell command of the turn removed it: the rewind must make both folders again.
    ws.user.removeFolder('deep/er')
    ws.user.removeFolder('deep')
    // Two files to write: the second one's placement fails, and the rewind rolls back.
    await expect(ws.rewindsUnder({ ops: failingLastPlacement(2) }).applyTurn(ws.writer.id, 1)).rejects.toThrow(/Every file was put back/)
    expect(ws.text('a.txt')).toBe('a after\n')
    expect(existsSync(join(ws.root, 'deep')), 'the folders the rewind made are gone again').toBe(false)
    expect(existsSync(join(ws.root, 'empty-before')), 'a folder it did not make stays').toBe(true)
  })
})
