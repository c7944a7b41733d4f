/**
 * Above a read-only workspace (a home or system folder an agent recorded: `/root` in a container):
 * what the user can do there and why a rewind cannot, before one is tried.
 */
export function ReadOnlyNotice({ reason }: { reason: string }) {
  return (
    <section className="retention-notice read-only-notice" role="status" data-testid="read-only-notice" aria-label="Read-only workspace">
      <span className="retention-notice-text">
        <strong>Read-only.</strong> Browse, search, export and fork these sessions without their files; Retrace never rewinds files here and keeps none of their
        changes. {reason}
      </span>
    </section>
  )
}
