import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api/client'
import { filesKeys } from '../../state/query-keys'
import { ErrorState, Loading } from '../../ui/States'
import { LineCounts } from './bits'
import { DiffView } from './DiffView'
import { useFilesUi } from './files-ui'
import { fromServer } from './queries'

/** Two checkpoints: of one session (`toSessionId` absent), or of two sessions of a workspace. */
export interface CompareSides {
  sessionId: string
  fromTurn: number
  toSessionId?: string
  toTurn: number
}

/** Cached under the first session (one session) or as a pair (refreshed when any session's files change). */
function keysOf(sides: CompareSides) {
  const { sessionId, fromTurn, toSessionId, toTurn } = sides
  if (toSessionId === undefined) {
    return { between: [...filesKeys.session(sessionId), 'between', fromTurn, toTurn], diff: (pathId: string) => filesKeys.diff(sessionId, pathId, fromTurn, toTurn) }
  }
  const pair = filesKeys.pair(sessionId, fromTurn, toSessionId, toTurn)
  return { between: pair, diff: (pathId: string) => [...pair, 'diff', pathId] }
}

/**
 * The files that differ between two checkpoints, each with its line counts, and the selected
 * one's diff beside the list. `nothing` is what to say when no file differs.
 */
export function CompareFiles({ sides, nothing }: { sides: CompareSides; nothing: string }) {
  const [chosen, setChosen] = useState<string | null>(null)
  const mode = useFilesUi((state) => state.diffMode)
  const keys = keysOf(sides)
  const files = useQuery({ queryKey: keys.between, queryFn: () => call('changes.between', sides) })
  const items = files.data?.items ?? []
  const selected = items.find((item) => item.pathId === chosen) ?? items[0] ?? null
  const diff = useQuery({
    queryKey: keys.diff(selected?.pathId ?? ''),
    queryFn: () => call('files.diff', { ...sides, pathId: selected?.pathId ?? '' }),
    select: fromServer,
    enabled: selected !== null
  })

  if (files.isError) return <ErrorState title="Could not compare these checkpoints" error={files.error} onRetry={() => void files.refetch()} />
  if (!files.data) return <Loading label="Comparing the checkpoints…" />
  if (items.length === 0) {
    return (
      <p className="muted" role="status" data-testid="compare-nothing">
        {nothing}
      </p>
    )
  }
  return (
    <div className="compare-body">
      <ul className="compare-files" aria-label="Files that differ">
        {items.map((item) => (
          <li key={item.pathId}>
            <button type="button" className="compare-file" data-testid="compare-file" data-path={item.path} aria-current={item === selected ? 'true' : undefined} onClick={() => setChosen(item.pathId)}>
              <span className="mono">{item.path}</span>
              <span className="muted">{item.before === null ? 'new' : item.after === null ? 'deleted' : ''}</span>
              <LineCounts added={item.added} removed={item.removed} />
            </button>
          </li>
        ))}
      </ul>
      <div className="compare-diff" data-testid="compare-diff">
        {diff.isError ? (
          <ErrorState title="Could not load the diff" error={diff.error} onRetry={() => void diff.refetch()} />
        ) : !diff.data || !selected ? (
          <Loading label={`Loading the diff of ${selected?.path ?? 'the file'}…`} />
        ) : (
          <DiffView data={diff.data} path={selected.path} mode={mode} />
        )}
      </div>
    </div>
  )
}
