import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import { helperShells } from '../testing/helper-shells'
import { BATCH_FROM_WRITES } from './apply'

describe.skipIf(process.platform !== 'linux')('planning a rewind large enough for the writer threads', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  it('starts the flusher’s helper process (with the threads) while the plan is made, before any apply; a small plan does not', async () => {
    const names = Array.from({ length: BATCH_FROM_WRITES }, (_, i) => `src/file-${i}.txt`)
    ws = agentWorkspace(Object.fromEntries(names.map((name) => [name, 'before\n'])))
    ws.agent.turn()
    for (const name of names) ws.agent.write(name, 'turn 1\n')
    ws.agent.turn()
    ws.agent.write('src/file-0.txt', 'turn 2\n')

    await ws.rewinds.planTurn(ws.writer.id, 2) // one file: done on the main thread, nothing to start
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(helperShells()).toHaveLength(0)

    const { plan } = await ws.rewinds.planTurn(ws.writer.id, 1)
    expect(plan.items.filter((item) => item.action === 'restore')).toHaveLength(BATCH_FROM_WRITES)
    await expect.poll(() => helperShells().length, { timeout: 10_000 }).toBe(1)
    const result = await ws.rewinds.applyTurn(ws.writer.id, 1, { token: plan.token }) // and the rewind uses them
    expect(result.steps).toHaveLength(BATCH_FROM_WRITES)
    expect(ws.text('src/file-0.txt')).toBe('before\n')
    expect(helperShells()).toHaveLength(1)
  })
})
