import { useUiStore } from '../../state/ui-store'

/** Shows or folds Claude Code's internals (caveats, local commands, hook output, system reminders). */
export function InternalsToggle() {
  const shown = useUiStore((state) => state.showInternals)
  const toggle = useUiStore((state) => state.toggleInternals)
  return (
    <button
      type="button"
      className="button small internals-toggle"
      data-testid="internals-toggle"
      aria-pressed={shown}
      title={shown ? 'Claude Code’s internals are shown, dimmed. Fold them away.' : 'Show Claude Code’s internals: caveats, local commands, hook output, system reminders.'}
      onClick={toggle}
    >
      {shown ? 'Hide internals' : 'Show internals'}
    </button>
  )
}
