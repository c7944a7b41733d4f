import { describe, expect, it } from 'vitest'
import { unreadText } from './unread-text'

describe('an unread count in words', () => {
  it('names the agent, its version, how many and what', () => {
    expect(unreadText({ source: 'codex', agentVersion: '0.160.0', what: 'event_msg "foo"', count: 1204 })).toBe('Codex CLI 0.160.0: 1,204 records of event_msg "foo" not read')
    expect(unreadText({ source: 'claude-code', agentVersion: null, what: 'line type "bar"', count: 1 })).toBe('Claude Code: 1 record of line type "bar" not read')
  })
})
