import { describe, expect, it } from 'vitest'
import type { HistoryFile } from './adapter'
import { importOrder } from './import-order'

const file = (sessionId: string, startedAt: number, more: Partial<HistoryFile> = {}): { file: HistoryFile } => ({
  file: { source: 'claude-code', path: `/h/${sessionId}.jsonl`, sessionId, role: 'main', cwd: '/w', backupDir: null, startedAt, ...more }
})

describe('the order an import writes files in', () => {
  it('puts the newest sessions first, a fork after the session it forks, and sub-agents last', () => {
    const order = importOrder([
      file('old', 1),
      file('agent-of-new', 5, { role: 'sub-agent', parentSessionId: 'new' }),
      file('fork-of-old', 9, { forkedFrom: { sessionId: 'old', messageUid: null } }),
      file('new', 4),
      file('middle', 2)
    ]).map(({ file }) => file.sessionId)
    expect(order).toEqual(['new', 'middle', 'old', 'fork-of-old', 'agent-of-new'])
  })

  it("puts an agent's own agents after it, however much later they started (Codex child threads spawning theirs)", () => {
    const order = importOrder([
      file('grandchild', 30, { role: 'sub-agent', parentSessionId: 'child' }),
      file('child', 10, { role: 'sub-agent', parentSessionId: 'root' }),
      file('other-agent', 20, { role: 'sub-agent', parentSessionId: 'root' }),
      file('root', 1)
    ]).map(({ file }) => file.sessionId)
    expect(order).toEqual(['root', 'other-agent', 'child', 'grandchild'])
  })
})
