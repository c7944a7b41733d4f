import { useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { MethodOutput } from '../../../../shared/contract'
import { call } from '../../api/client'
import { formatDateTime } from '../../lib/format'
import { useUiStore } from '../../state/ui-store'
import { KindBadge } from '../../ui/KindBadge'
import { EmptyState, ErrorState, Loading } from '../../ui/States'
import { sessionKeys } from '../../state/query-keys'
import { OpBadge } from './bits'
import { formatBytes, OBSERVED_LABEL, OBSERVED_TITLE } from './changes'
import { DiffView } from './DiffView'
import type { DiffMode, RestoreRequest } from './files-ui'
import { useEntryDiff, useFileHistory } from './queries'
import { VersionView } from './VersionView'

type HistoryItem = MethodOutput<'files.history'>['items'][number] & {
  key: string
  /** Which of the turn's changes to this file it is, when the turn changed it more than once. */
  step: { index: number; count: number } | null
}
type Show = 'content' | 'changes'

/**
 * Every recorded change to one path across the workspace's sessions, newest first; the
 * selected one shows the file as that change left it, or what the change did.
 */
export function FileHistory({
  workspaceId,
  pathId,
  path,
  current,
  mode,
  onLeave,
  onRestore
}: {
  workspaceId: number
  pathId: string
  path: string
  /** "Restore this version" (absent: not offered). */
  onRestore?: ((request: RestoreRequest) => void) | undefined
  /** The turn the dialog was opened from: its entry is selected first and marked. */
  current: { sessionId: string; turn: number }
  mode: DiffMode
  /** Called before jumping to another session's turn (the dialog closes). */
  onLeave: () => void
}) {
  const history = useFileHistory(workspaceId, pathId)
  const items = useMemo((): HistoryItem[] => withSteps(history.data?.items ?? []).reverse(), [history.data])
  const [chosen, setChosen] = useState<string | null>(null)
  const [show, setShow] = useState<Show>('content')

  if (history.isError) return <ErrorState title="Could not load the file’s history" error={history.error} onRetry={() => void history.refetch()} />
  if (!history.data) return <Loading label="Loading the file’s history…" />
  if (items.length === 0) return <EmptyState title="No recorded changes">Retrace has no journal entries for {path}.</EmptyState>

  const isCurrent = (item: HistoryItem) => item.sessionId === current.sessionId && item.turn === current.turn
  const selected = items.find((item) => item.key === chosen) ?? items.find(isCurrent) ?? items[0]

  return (
    <div className="file-history" data-testid="file-history">
      <ol className="history-list" aria-label={`Changes to ${path}, newest first`}>
        {items.map((item) => (
          <li key={item.key}>
            <button
              type="button"
              className="history-item"
              data-testid="history-item"
              aria-current={item === selected ? 'true' : undefined}
              onClick={() => setChosen(item.key)}
            >
              <span className="history-item-title">
                <OpBadge op={item.op} />
                <span className="history-session">{sessionLabel(item)}</span>
                {item.sessionKind ? <KindBadge kind={item.sessionKind} /> : null}
              </span>
              <span className="history-item-meta">
                {item.turn !== null ? <span>Turn {item.turn}</span> : null}
                {item.step ? (
                  <span>
                    edit {item.step.index} of {item.step.count}
                  </span>
                ) : null}
                <time dateTime={new Date(item.createdAt).toISOString()}>{formatDateTime(item.createdAt)}</time>
                <span title={OBSERVED_TITLE[item.observed]}>{OBSERVED_LABEL[item.observed]}</span>
                <span className="history-sizes">{sizes(item)}</span>
                {isCurrent(item) ? <span className="history-here">this turn</span> : null}
              </span>
            </button>
          </li>
        ))}
      </ol>
      {selected ? <HistoryEntry key={selected.key} item={selected} workspaceId={workspaceId} pathId={pathId} path={path} mode={mode} show={show} setShow={setShow} onLeave={onLeave} onRestore={onRestore} /> : null}
    </div>
  )
}

function withSteps(items: readonly MethodOutput<'files.history'>['items'][number][]): HistoryItem[] {
  const turnOf = (item: (typeof items)[number]) => `${item.sessionId ?? ''}:${item.turn ?? ''}`
  const counts = new Map<string, number>()
  for (const item of items) counts.set(turnOf(item), (counts.get(turnOf(item)) ?? 0) + 1)
  const seen = new Map<string, number>()
  return items.map((item, index) => {
    const turn = turnOf(item)
    const count = counts.get(turn) ?? 1
    const position = (seen.get(turn) ?? 0) + 1
    seen.set(turn, position)
    return { ...item, key: String(index), step: item.turn !== null && count > 1 ? { index: position, count } : null }
  })
}

/** "251 B → 333 B", "new, 1.2 KB", "deleted". */
function sizes(item: HistoryItem): string {
  if (!item.before && item.after) return `new, ${formatBytes(item.after.size)}`
  if (item.before && !item.after) return 'deleted'
  if (item.before && item.after) return `${formatBytes(item.before.size)} → ${formatBytes(item.after.size)}`
  return ''
}

function sessionLabel(item: HistoryItem): string {
  if (item.sessionTitle) return item.sessionTitle
  return item.observed === 'rewind' ? 'A rewind' : 'No session'
}

function HistoryEntry({
  item,
  workspaceId,
  pathId,
  path,
  mode,
  show,
  setShow,
  onLeave,
  onRestore
}: {
  item: HistoryItem
  workspaceId: number
  pathId: string
  path: string
  mode: DiffMode
  show: Show
  setShow: (show: Show) => void
  onLeave: () => void
  onRestore: ((request: RestoreRequest) => void) | undefined
}) {
  const queryClient = useQueryClient()
  const openMessage = useUiStore((state) => state.openMessage)
  const [jumpError, setJumpError] = useState<string | null>(null)
  const version = item.after ?? item.before
  const turn = item.turn === null ? '' : item.step ? `edit ${item.step.index} of ${item.step.count} in turn ${item.turn} of ` : `turn ${item.turn} of `
  const where = `${turn}“${sessionLabel(item)}”`
  const caption = item.after ? `The file after ${where}` : `Deleted in ${where}; the version before`

  const showInTranscript = async () => {
    if (!item.sessionId || item.turn === null) return
    const sessionId = item.sessionId
    try {
      const detail = await queryClient.fetchQuery({ queryKey: sessionKeys.detail(sessionId), queryFn: () => call('sessions.get', { sessionId }) })
      const checkpoint = detail.checkpoints.find((candidate) => candidate.turn === item.turn)
      onLeave()
      openMessage({ workspaceId: detail.workspaceId, sessionId, seq: checkpoint?.messagesBefore ?? 0 })
    } catch {
      setJumpError('That session could not be opened.')
    }
  }

  return (
    <section className="history-entry" aria-label={caption}>
      <div className="history-entry-bar">
        <p className="history-caption">{show === 'content' ? caption : `What ${where} changed`}</p>
        <div className="segmented" role="group" aria-label="Show">
          <button type="button" aria-pressed={show === 'content'} onClick={() => setShow('content')}>
            Content
          </button>
          <button type="button" aria-pressed={show === 'changes'} onClick={() => setShow('changes')}>
            Changes
          </button>
        </div>
        {onRestore && version ? (
          <button
            type="button"
            className="button"
            data-testid="restore-version"
            title="Put this version back on disk: previewed first, with conflicts, and it can be undone"
            onClick={() => onRestore({ workspaceId, pathId, path, hash: version.hash, label: caption.replace(/^The file/, 'the file').replace(/^Deleted/, 'deleted') })}
          >
            Restore this version
          </button>
        ) : null}
        {item.sessionId && item.turn !== null ? (
          <button type="button" className="button ghost" onClick={() => void showInTranscript()}>
            Show in transcript
          </button>
        ) : null}
      </div>
      {jumpError ? (
        <p className="file-inline-error" role="alert">
          {jumpError}
        </p>
      ) : null}
      {show === 'content' ? (
        version ? (
          <VersionView workspaceId={workspaceId} hash={version.hash} path={path} />
        ) : (
          <EmptyState title="No content recorded" />
        )
      ) : (
        <EntryChanges item={item} workspaceId={workspaceId} pathId={pathId} path={path} mode={mode} />
      )}
    </section>
  )
}

function EntryChanges({ item, workspaceId, pathId, path, mode }: { item: HistoryItem; workspaceId: number; pathId: string; path: string; mode: DiffMode }) {
  const diff = useEntryDiff(workspaceId, pathId, item, item.step === null)
  if (diff.status === 'error') return <ErrorState title="Could not load this change" error={diff.error} onRetry={diff.retry} />
  if (diff.status === 'pending') return <Loading label="Loading the change…" />
  return <DiffView data={diff.data} path={path} mode={mode} />
}
