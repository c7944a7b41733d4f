import { useUiStore } from '../../state/ui-store'

const EXPLAINED =
  'Claude Code 2.0 started sub-agents of its own when a session opened, to warm its prompt cache ("Warmup"). They, and sessions that never got a prompt and only hold them, are hidden unless shown here.'

/**
 * Shows or hides warm-ups in the list and the graph. Only there when some exist: `hidden` is how
 * many the view leaves out now (0 while they are shown).
 */
export function WarmupToggle({ hidden }: { hidden: number }) {
  const shown = useUiStore((state) => state.showWarmups)
  const toggle = useUiStore((state) => state.toggleWarmups)
  if (!shown && hidden === 0) return null
  return (
    <button type="button" className="button warmup-toggle" data-testid="warmup-toggle" aria-pressed={shown} title={EXPLAINED} onClick={toggle}>
      {shown ? 'Hide warm-ups' : `Show ${hidden} warm-up${hidden === 1 ? '' : 's'}`}
    </button>
  )
}
