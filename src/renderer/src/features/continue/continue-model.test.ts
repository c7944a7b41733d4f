import { describe, expect, it } from 'vitest'
import { continueOffer } from './continue-model'

describe('continueOffer', () => {
  it('offers the agent for Claude Code and Codex sessions and their branches, Retrace-only for other branches', () => {
    expect(continueOffer({ source: 'claude-code', kind: 'main', turnCount: 3 })).toEqual({ kind: 'agent', agent: 'claude-code', label: 'Continue in Claude Code' })
    expect(continueOffer({ source: 'codex', kind: 'branch', turnCount: 1 })).toEqual({ kind: 'agent', agent: 'codex', label: 'Continue in Codex' })
    expect(continueOffer({ source: 'claude-code', kind: 'main', turnCount: 0 })).toEqual({ kind: 'none' })
    expect(continueOffer({ source: 'native', kind: 'branch', turnCount: 2 })).toEqual({ kind: 'retrace-only' })
    expect(continueOffer({ source: 'gemini-cli', kind: 'main', turnCount: 2 })).toEqual({ kind: 'none' })
  })
})
