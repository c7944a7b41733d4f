import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { RewindCoverage, SessionSummary } from '../../../../shared/contract'
import { SessionRow } from './SessionRow'

// The window's UI store reads the system theme when first imported; Node has no window.
vi.hoisted(() => {
  Object.assign(globalThis, { window: { matchMedia: () => ({ matches: false, addEventListener: () => undefined }) } })
})

// The figures of a real import (fixtures/conformance/claude-code-log-deep-manifest, Claude Code
// 2.0.55): 20 changes journaled, 3 Writes of its plan file outside the workspace, 25 shell commands.
const DEEP_MANIFEST: RewindCoverage = { recorded: 20, notCaptured: 3, uncapturedCommands: 25, agentKeepsNoContent: false }

describe('rewind coverage in the session list', () => {
  it('shows the badge in the session list row', () => {
    const session = { id: 's1', title: 'Add tar support', kind: 'main', source: 'claude-code', coverage: DEEP_MANIFEST, turnCount: 7, messageCount: 299, updatedAt: 0, merged: null, sourceDeletedAt: null, missingParent: null, warmup: false, rewoundInAgent: false, parentId: null, predecessorId: null } as unknown as SessionSummary
    const html = renderToStaticMarkup(<SessionRow row={{ session, depth: 0 } as never} optionId="o1" selected={false} onSelect={() => undefined} />)
    expect(html).toContain('data-testid="coverage-badge"')
    expect(html).toContain('20 of 48 recorded')
  })
})
