import { describe, expect, it } from 'vitest'
import { sessionFolderOf } from './saved-output'

describe('the session folder a history file saves its tool outputs in', () => {
  const session = '/c/projects/p/0f0f0f0f-0000-4000-8000-000000000001'
  it('is the folder named after the session, for the session and every agent under it', () => {
    expect(sessionFolderOf(`${session}.jsonl`)).toBe(session)
    expect(sessionFolderOf(`${session}/subagents/agent-a1.jsonl`)).toBe(session)
    expect(sessionFolderOf(`${session}/subagents/workflows/wf_1/agent-w1.jsonl`)).toBe(session)
  })

  it('is none for a file outside that layout (an older agent beside the sessions, a folder merely named subagents)', () => {
    expect(sessionFolderOf('/c/projects/p/agent-a1.jsonl')).toBeNull()
    expect(sessionFolderOf('/home/subagents/.claude/projects/p/agent-a1.jsonl')).toBeNull()
    expect(sessionFolderOf('/c/projects/p/not-a-session/subagents/agent-a1.jsonl')).toBeNull()
  })
})
