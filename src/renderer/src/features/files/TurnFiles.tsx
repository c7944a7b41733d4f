import { useId, useMemo } from 'react'
import type { NotCapturedChange } from '../../../../shared/contract'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useDisclosureState } from '../../ui/disclosure'
import { LineCounts } from './bits'
import { ChangeRow } from './ChangeRow'
import { NotCapturedChanges } from './NotCapturedChanges'
import { groupTurnChanges, totals, uncapturedNotice, type ChangeGroup } from './changes'
import { SHELL_CAPTURE_HINT } from '../../../../shared/shell-capture'
import { useFilesUi } from './files-ui'
import { useNetCounts, useTurnChanges } from './queries'
import { UncapturedCommands } from './UncapturedCommands'
import { useSettled } from './use-settled'

/** `data-file-button` of a file row, where focus returns when its diff closes. */
export const fileButtonId = (sessionId: string, turn: number, group: ChangeGroup): string => `${sessionId}:${turn}:${group.key}`

/**
 * A turn header's "3 files changed +12 −4" toggle and, expanded, the list of those files.
 * Queried only once the header has been on screen for a moment (the transcript is virtual,
 * so that is a handful of turns at a time, never all of them). Renders a toggle and a list
 * side by side; the list wraps below the header row (CSS `order`, full width).
 */
export function TurnFiles({
  sessionId,
  turn,
  uncapturedCommands,
  notCaptured = []
}: {
  sessionId: string
  turn: number
  uncapturedCommands: number
  /** The turn's changes the history shows but Retrace could not record (its checkpoint's). */
  notCaptured?: readonly NotCapturedChange[]
}) {
  const settled = useSettled(150)
  const changes = useTurnChanges(sessionId, turn, settled)
  const groups = useMemo(() => groupTurnChanges(changes.data?.items ?? []), [changes.data])
  const net = useNetCounts(sessionId, turn, groups)
  const [open, setOpen] = useDisclosureState(`turn-files-${turn}`)
  const openFile = useFilesUi((state) => state.openFile)
  const listId = useId()

  if (changes.isError) {
    return (
      <button type="button" className="turn-files-toggle is-error" title={errorMessage(changes.error)} onClick={() => void changes.refetch()}>
        Could not load this turn’s files · retry
      </button>
    )
  }
  if (!changes.data || (groups.length === 0 && uncapturedCommands === 0 && notCaptured.length === 0)) return null

  const rows = groups.map((group) => ({ ...group, ...net.get(group.key) }))
  const countsPending = groups.some((group) => group.entries.length > 1 && !group.renamed && !net.has(group.key))
  const sum = totals(rows)

  return (
    <>
      <button
        type="button"
        className="turn-files-toggle"
        data-testid="turn-files-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <span className="chevron" aria-hidden="true" />
        {groups.length > 0 ? <span>{plural(groups.length, 'file')} changed</span> : <span>No file changes recorded</span>}
        {groups.length > 0 && !countsPending ? <LineCounts added={sum.added} removed={sum.removed} /> : null}
        {notCaptured.length > 0 ? (
          <span className="uncaptured-mark" data-testid="not-captured-mark" title="Changes the agent's history shows that Retrace could not record: a rewind leaves them as they are.">
            <span aria-hidden="true">⚠</span> {plural(notCaptured.length, 'change')} not recorded
          </span>
        ) : null}
        {uncapturedCommands > 0 ? (
          <span className="uncaptured-mark" title={uncapturedNotice(uncapturedCommands)}>
            <span aria-hidden="true">⚠</span> {plural(uncapturedCommands, 'shell command')} not captured
          </span>
        ) : null}
      </button>
      {open ? (
        <div id={listId} className="turn-files" data-testid="turn-files">
          <NotCapturedChanges entries={notCaptured} />
          {uncapturedCommands > 0 ? (
            <div className="uncaptured-notice" data-testid="uncaptured-notice">
              <span aria-hidden="true">⚠ </span>
              {uncapturedNotice(uncapturedCommands)} Their changes are not in this list and a rewind cannot restore them. {SHELL_CAPTURE_HINT}
              <UncapturedCommands sessionId={sessionId} turn={turn} counted={uncapturedCommands} />
            </div>
          ) : null}
          {rows.length > 0 ? (
            <ul className="turn-file-list" aria-label={`Files changed in turn ${turn}`}>
              {rows.map((row) => (
                <li key={row.key}>
                  <ChangeRow
                    group={row}
                    added={row.added}
                    removed={row.removed}
                    buttonId={fileButtonId(sessionId, turn, row)}
                    testId="turn-file"
                    onOpen={() => openFile({ sessionId, turn, group: row, returnFocus: fileButtonId(sessionId, turn, row) })}
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  )
}
