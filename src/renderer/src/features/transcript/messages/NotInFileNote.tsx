/**
 * Before messages the agent's own history file no longer holds: the file was cut short or
 * replaced by an older copy, and Retrace kept what it had imported (docs/reliability.md R31).
 */
export function NotInFileNote() {
  return (
    <p className="not-in-file-note" data-testid="not-in-file-note" role="note">
      The agent’s file no longer holds these messages. <span className="muted">Retrace kept them: the file was cut short or replaced by an older copy.</span>
    </p>
  )
}
