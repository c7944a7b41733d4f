import type { TranscriptKind } from '../../../../shared/contract'
import { useUiStore } from '../../state/ui-store'

/**
 * Display (everything that happened) vs Context (what the model saw after compactions). One
 * button flips between them; both labels stay visible, the active one highlighted.
 */
export function ModeToggle() {
  const mode = useUiStore((state) => state.transcriptMode)
  const setMode = useUiStore((state) => state.setTranscriptMode)
  const next: TranscriptKind = mode === 'display' ? 'context' : 'display'
  return (
    <button
      type="button"
      className="mode-toggle"
      data-testid="transcript-mode"
      data-mode={mode}
      aria-pressed={mode === 'context'}
      title={mode === 'display' ? 'Showing everything. Switch to what the model saw (after compactions).' : 'Showing what the model saw. Switch to everything.'}
      onClick={() => setMode(next)}
    >
      <span className={mode === 'display' ? 'active' : undefined}>Display</span>
      <span className={mode === 'context' ? 'active' : undefined}>Context</span>
    </button>
  )
}
