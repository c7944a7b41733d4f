import type { ConnectionState } from '../api/transport'

/** Shown while the web binding's event stream is down: the view may be out of date meanwhile. */
export function ConnectionBanner({ state }: { state: ConnectionState }) {
  // Connecting is the first second of a page, not a loss: nothing to warn about.
  if (state !== 'reconnecting') return null
  return (
    <div className="connection-banner" role="status">
      Lost the live connection to the Retrace server — reconnecting. What you see may be out of date.
    </div>
  )
}
