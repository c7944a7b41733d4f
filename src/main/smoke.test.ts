import { test, expect } from 'vitest'
import { tempRuntime } from './testing/temp-runtime'
test('smoke', async () => {
  const rt = tempRuntime()
  const ws = await rt.handlers['workspaces.openDemo']({})
  console.log(ws)
  const list = await rt.handlers['sessions.list']({ workspaceId: ws.id, limit: 100 })
  console.log(list.items.map(s => [s.title, s.kind, s.messageCount, s.turnCount, s.parentId, s.predecessorId]))
  const first = list.items.find(s => s.title.startsWith('Fix'))!
  const d = await rt.handlers['sessions.get']({ sessionId: first.id })
  console.log(d.checkpoints, d.contextStartSeq, d.successors)
  const p = await rt.handlers['transcript.page']({ sessionId: first.id, transcript: 'context', direction: 'after', limit: 5 })
  console.log(p.items.map(m => [m.seq, m.role, m.content.slice(0, 40)]), p.beforeCursor, p.afterCursor, p.total)
  const s = await rt.handlers['search.messages']({ query: 'flaky', limit: 5 })
  console.log(JSON.stringify(s.items[0]))
  const again = await rt.handlers['workspaces.openDemo']({})
  expect(again.sessionCount).toBe(ws.sessionCount)
  rt.dispose()
})
