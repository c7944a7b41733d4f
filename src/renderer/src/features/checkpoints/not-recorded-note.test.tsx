import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Checkpoint, NotCapturedChange, RewindCoverage } from '../../../../shared/contract'
import { NotRecordedNote } from './NotRecordedNote'

// The figures of a real import (fixtures/conformance/claude-code-log-deep-manifest, Claude Code
// 2.0.55): 20 changes journaled, 3 Writes of its plan file outside the workspace, 25 shell commands.
const PLAN = '/home/cboos/.claude/plans/humble-doodling-wolf.md'
const ENTRIES: NotCapturedChange[] = [
  { turn: 4, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' },
  { turn: 5, tool: 'Write', path: PLAN, reason: 'outside the workspace' }
]
const NONE: RewindCoverage = { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false }

const checkpoint = (turn: number, fields: Partial<Checkpoint> = {}): Checkpoint => ({
  turn,
  messagesBefore: turn * 10,
  invalidated: false,
  uncapturedCommands: 0,
  notCaptured: [],
  coverage: NONE,
  createdAt: 0,
  ...fields
})

describe('changes not recorded in the rewind preview', () => {
  it('says in the rewind preview "3 changes in these turns are not recorded", lists them, and counts only the turns rewound', () => {
    const checkpoints = [checkpoint(3, { uncapturedCommands: 2 }), checkpoint(4, { notCaptured: ENTRIES.slice(0, 1) }), checkpoint(5, { notCaptured: ENTRIES.slice(1), uncapturedCommands: 1 })]
    const html = renderToStaticMarkup(<NotRecordedNote checkpoints={checkpoints} fromTurn={4} agentKeepsNoContent={false} />)
    expect(html).toContain('3 changes in these turns are not recorded:')
    expect(html).toContain('this rewind leaves them as they are')
    expect(html.match(/data-testid="rewind-not-recorded-change"/g)).toHaveLength(3)
    expect(html).toContain('Write in turn 4: outside the workspace')
    expect(html).toContain('Turn 5 ran shell commands')
    expect(html).not.toContain('Turn 3')
    const last = renderToStaticMarkup(<NotRecordedNote checkpoints={checkpoints} fromTurn={5} agentKeepsNoContent={false} />)
    expect(last).toContain('2 changes in this turn are not recorded:')
    expect(renderToStaticMarkup(<NotRecordedNote checkpoints={[checkpoint(1)]} fromTurn={1} agentKeepsNoContent={false} />)).toBe('')
    expect(renderToStaticMarkup(<NotRecordedNote checkpoints={[checkpoint(1)]} fromTurn={1} agentKeepsNoContent />)).toContain('This agent keeps no file content')
  })
})
