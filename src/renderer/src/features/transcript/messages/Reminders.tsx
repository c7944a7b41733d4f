import { useUiStore } from '../../../state/ui-store'
import { remindersLabel } from '../internals'

/**
 * The `<system-reminder>` blocks and IDE notes Claude Code added to a prompt or a tool result (internals.ts):
 * a dim count, or their text, dimmed, when internals are shown.
 */
export function Reminders({ reminders }: { reminders: string[] }) {
  const shown = useUiStore((state) => state.showInternals)
  const toggle = useUiStore((state) => state.toggleInternals)
  if (reminders.length === 0) return null
  if (shown) {
    return (
      <div className="reminders internal" data-testid="reminders">
        {reminders.map((reminder, index) => (
          <pre key={index} className="plain-text">
            {reminder}
          </pre>
        ))}
      </div>
    )
  }
  return (
    <button type="button" className="internals-line" data-testid="reminders-folded" title="Text Claude Code added for the model, not the user's or the tool's. Click to show it." onClick={toggle}>
      <span aria-hidden="true">⋯</span> {remindersLabel(reminders)} from Claude Code
    </button>
  )
}
