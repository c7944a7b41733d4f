import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { NotCapturedChange, RewindCoverage } from '../../../shared/contract'
import { CoverageBadge } from './CoverageBadge'

// The figures of a real import (fixtures/conformance/claude-code-log-deep-manifest, Claude Code
// 2.0.55): 20 changes journaled, 3 Writes of its plan file outside the workspace, 25 shell commands.
const PLAN = '/home/cboos/.claude/plans/humble-doodling-wolf.md'
const DEEP_MANIFEST: RewindCoverage = { recorded: 20, notCaptured: 3, uncapturedCommands: 25, agentKeepsNoContent: false }
const ENTRIES: NotCapturedChange[] = [
  { turn: 4, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' }
]
const NONE: RewindCoverage = { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }

describe('rewind coverage badge', () => {
  it('says "N of M recorded" with the reasons in its tooltip, "all changes recorded", "this agent keeps no file content", and nothing without changes', () => {
    const partial = renderToStaticMarkup(<CoverageBadge coverage={DEEP_MANIFEST} entries={ENTRIES} />)
    expect(partial).toContain('>20 of 48 recorded<')
    expect(partial).toContain('data-status="partial"')
    expect(partial).toContain('3 changes not recorded: 3 outside the workspace.')
    expect(partial).toContain('25 shell commands whose file changes no scan saw.')
    expect(renderToStaticMarkup(<CoverageBadge coverage={{ ...NONE, recorded: 7 }} />)).toContain('>all changes recorded<')
    expect(renderToStaticMarkup(<CoverageBadge coverage={{ ...NONE, agentKeepsNoContent: true }} />)).toContain('>this agent keeps no file content<')
    expect(renderToStaticMarkup(<CoverageBadge coverage={NONE} />)).toBe('')
  })
})
