import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { useUiStore } from '../../state/ui-store'
import { workspaceKeys } from '../../state/query-keys'
import { useDialogStore } from './dialog-store'
import { nothingToRewindReason } from './rewind-availability'

/** Why the open workspace is never rewound (a home or system folder), or null. */
function useReadOnlyReason(): string | null {
  const workspaceId = useUiStore((state) => state.workspaceId)
  const workspace = useQuery({ queryKey: workspaceKeys.detail(workspaceId ?? 0), queryFn: () => call('workspaces.get', { workspaceId: workspaceId ?? 0 }), enabled: workspaceId !== null })
  return workspace.data?.readOnly ?? null
}

/**
 * A turn's actions: rewind the session's files to before it, fork a branch from it, or export
 * the conversation up to its end. Each opens a dialog that previews first; nothing changes (and
 * nothing is written) until the user confirms there. Renders
 * the two buttons only: the turn header provides their container (`.turn-actions`).
 */
export function TurnActions({ sessionId, turn, lastChangedTurn }: { sessionId: string; turn: number; /** From the session detail; undefined while it loads. */ lastChangedTurn?: number | null }) {
  const open = useDialogStore((state) => state.open)
  const readOnly = useReadOnlyReason()
  // Turn 0 is what came before the first prompt: there is no checkpoint before it.
  if (turn < 1) return null
  const nothing = readOnly !== null ? `Read-only: Retrace never rewinds files here. ${readOnly}` : nothingToRewindReason(turn, lastChangedTurn)
  return (
    <>
      <button
        type="button"
        className="turn-action"
        data-testid="turn-rewind"
        aria-label="Rewind files to before this turn"
        title={nothing ?? `Rewind files to before turn ${turn} (shows a preview first)`}
        disabled={nothing !== null}
        onClick={() => open({ kind: 'rewind', sessionId, turn })}
      >
        <span aria-hidden="true">↶</span> Rewind
      </button>
      <button
        type="button"
        className="turn-action"
        data-testid="turn-fork"
        aria-label="Fork from here"
        title={`Fork a branch from before turn ${turn}`}
        onClick={() => open({ kind: 'fork', sessionId, turn })}
      >
        <ForkIcon /> Fork
      </button>
      <button
        type="button"
        className="turn-action"
        data-testid="turn-export"
        aria-label="Export up to this turn"
        title={`Export the conversation up to the end of turn ${turn} (reviews secrets first)`}
        onClick={() => open({ kind: 'export', sessionId, throughTurn: turn })}
      >
        <span aria-hidden="true">⤓</span> Export
      </button>
    </>
  )
}

/** A branch glyph drawn, not typed: the Unicode fork signs are missing from many UI fonts. */
function ForkIcon() {
  return (
    <svg className="turn-action-icon" width="11" height="11" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="4" cy="3" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="4" cy="13" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="12" cy="5" r="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M4 5v6M12 7c0 3-8 2-8 4" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  )
}
