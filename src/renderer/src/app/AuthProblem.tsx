/**
 * Full-screen explanation when the web binding has no token or a wrong one (typically: the
 * page was opened without the `?token=` part, or `retrace serve` was restarted).
 */
export function AuthProblem({ detail }: { detail: string | null }) {
  return (
    <main className="full-screen-message" data-testid="auth-problem">
      <div className="state state-error" data-testid="error-state" role="alert">
        <h1 className="state-title">
          Open the link that <code>retrace serve</code> printed
        </h1>
        <p className="state-body">
          This page needs the access token from the URL printed by <code>retrace serve</code> when it started, e.g.{' '}
          <code>http://127.0.0.1:PORT/?token=…</code>. Each run prints a new one; open that exact URL (through your SSH tunnel if you use
          one).
        </p>
        {detail ? <p className="state-body muted">Server said: {detail}</p> : null}
      </div>
    </main>
  )
}
