import { useMemo } from 'react'
import { plural } from '../../lib/format'
import { ChangeRow, fileButtonId, groupTurnChanges, useFilesUi, useNetCounts, useTurnChanges } from '../files'

/** The files the turn being replayed changed, each opening its diff: what the agent did to the code, as it goes. */
export function ReplayFiles({ sessionId, turn }: { sessionId: string; turn: number }) {
  const changes = useTurnChanges(sessionId, turn, turn > 0)
  const groups = useMemo(() => groupTurnChanges(changes.data?.items ?? []), [changes.data])
  // A file edited several times in the turn: its +/- are those of the whole turn's diff.
  const net = useNetCounts(sessionId, turn, groups)
  const openFile = useFilesUi((state) => state.openFile)

  let body
  if (turn === 0) body = <p className="muted">Files appear here as the turns that changed them play.</p>
  else if (changes.isError) body = <p className="muted">Could not load the files of turn {turn}.</p>
  else if (!changes.data) body = <p className="muted">Loading the files of turn {turn}…</p>
  else if (groups.length === 0) body = <p className="muted">Turn {turn} changed no files.</p>
  else {
    body = (
      <ul className="turn-file-list" aria-label={`Files changed in turn ${turn}`}>
        {groups.map((group) => (
          <li key={group.key}>
            <ChangeRow
              group={group}
              added={net.get(group.key)?.added ?? group.added}
              removed={net.get(group.key)?.removed ?? group.removed}
              buttonId={`replay:${fileButtonId(sessionId, turn, group)}`}
              testId="replay-file"
              onOpen={() => openFile({ sessionId, turn, group, returnFocus: `replay:${fileButtonId(sessionId, turn, group)}` })}
            />
          </li>
        ))}
      </ul>
    )
  }
  return (
    <section className="replay-files" data-testid="replay-files" data-turn={turn} aria-label="Files of the turn being replayed">
      <h3 className="replay-files-title">{turn > 0 ? `Turn ${turn} · ${changes.data ? plural(groups.length, 'file') + ' changed' : '…'}` : 'Files'}</h3>
      {body}
    </section>
  )
}
