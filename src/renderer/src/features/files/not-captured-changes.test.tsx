import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { NotCapturedChange } from '../../../../shared/contract'
import { NotCapturedChanges } from './NotCapturedChanges'

// The figures of a real import (fixtures/conformance/claude-code-log-deep-manifest, Claude Code
// 2.0.55): 20 changes journaled, 3 Writes of its plan file outside the workspace, 25 shell commands.
const PLAN = '/home/cboos/.claude/plans/humble-doodling-wolf.md'
const ENTRIES: NotCapturedChange[] = [
  { turn: 4, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' }
]

describe('changes not recorded in a turn header', () => {
  it('lists a turn’s changes not recorded with path, tool and reason', () => {
    const html = renderToStaticMarkup(<NotCapturedChanges entries={ENTRIES.slice(1)} />)
    expect(html).toContain('2 changes in this turn are not recorded, so a rewind leaves them as they are')
    expect(html.match(/data-testid="not-captured-change"/g)).toHaveLength(2)
    expect(html).toContain(PLAN)
    expect(html).toMatch(/<span class="mono">Write<\/span>: outside the workspace/)
    expect(renderToStaticMarkup(<NotCapturedChanges entries={[]} />)).toBe('')
  })
})
