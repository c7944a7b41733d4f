import type { NotCapturedChange } from '../../../../shared/contract'
import { plural } from '../../lib/format'

/**
 * A turn's changes the agent's history shows but Retrace could not record, beside the recorded
 * ones: each path (or "a file" when the agent did not name it), the tool and why. A rewind
 * leaves these as they are.
 */
export function NotCapturedChanges({ entries }: { entries: readonly NotCapturedChange[] }) {
  if (entries.length === 0) return null
  return (
    <div className="not-captured" data-testid="not-captured">
      <div className="not-captured-head">
        <span aria-hidden="true">⚠ </span>
        {plural(entries.length, 'change')} in this turn {entries.length === 1 ? 'is' : 'are'} not recorded, so a rewind leaves {entries.length === 1 ? 'it' : 'them'} as {entries.length === 1 ? 'it is' : 'they are'}:
      </div>
      <ul className="not-captured-list">
        {entries.map((entry, index) => (
          <li key={index} data-testid="not-captured-change" data-path={entry.path ?? undefined}>
            <span className="mono not-captured-path">{entry.path ?? 'a file the agent did not name'}</span>
            <span className="not-captured-why">
              <span className="mono">{entry.tool}</span>: {entry.reason}
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
