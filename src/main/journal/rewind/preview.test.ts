import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../cli/main'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'

/** Every entry under `root` with its content and every stat field a write would move. */
function fingerprint(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const path = join(root, name)
      const stats = lstatSync(path, { bigint: true })
      const content = stats.isFile() ? readFileSync(path).toString('base64') : ''
      return `${name} ${stats.mode} ${stats.ino} ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${content}`
    })
}

describe('a preview of a rewind', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('writes nothing to the workspace: rewind.plan, rewind.planUndo and `retrace rewind --dry-run`', async () => {
    ws = agentWorkspace({ 'a.txt': 'a before\n', 'dir/b.txt': 'b before\n', 'gone.txt': 'gone\n' })
    ws.agent.turn()
    ws.agent.write('a.txt', 'a after\n')
    ws.agent.write('new/c.txt', 'created\n')
    ws.agent.remove('gone.txt')
    ws.user.write('dir/b.txt', 'the user changed this\n') // a conflict in the plan
    const { rewindId } = await ws.rewinds.applyTurn(ws.writer.id, 1)
    ws.agent.turn()
    ws.agent.write('a.txt', 'a again\n')
    const before = fingerprint(ws.root)

    const plan = await ws.rt.handlers['rewind.plan']({ sessionId: ws.writer.id, turn: 1 })
    expect(plan.items.some((item) => item.action !== 'none')).toBe(true)
    await ws.rt.handlers['rewind.planUndo']({ rewindId })
    const out: string[] = []
    const code = await runCli(['rewind', ws.writer.id, '--turn', '1', '--dry-run', '--data-dir', ws.rt.store.dataDir], { out: (text) => out.push(text), err: (text) => out.push(text) }, {})
    expect(code, out.join('\n')).toBe(0)

    expect(fingerprint(ws.root)).toEqual(before)
  })
})
