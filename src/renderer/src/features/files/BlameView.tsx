import { useQueryClient } from '@tanstack/react-query'
import { useMemo, useState, type ReactNode } from 'react'
import { RetraceError, type Blame, type BlameOrigin } from '../../../../shared/contract'
import { call } from '../../api/client'
import { sourceLabel } from '../../../../shared/source-labels'
import { formatDateTime } from '../../lib/format'
import { sessionKeys } from '../../state/query-keys'
import { useUiStore } from '../../state/ui-store'
import { ErrorState, Loading } from '../../ui/States'
import { highlight } from '../../ui/highlighter'
import { chunkLines, lineHtml, type LineRef } from './diff-rows'
import { FileNotice } from './DiffView'
import { languageOfPath } from './language'
import { useFileBlame } from './queries'
import { CodeText, VirtualLines } from './VirtualLines'

interface BlameLine {
  no: number
  text: string
  colour: LineRef | null
  origin: BlameOrigin | null
  /** Which run (for alternate shading), and whether this line starts it (the label shows once per run). */
  run: number
  first: boolean
}

/**
 * Who last wrote each line of the file: a gutter names the session and turn (or a change no
 * turn made) once per run of lines, runs shaded alternately; hovering tells the agent, time and
 * prompt; a click opens that turn in its transcript.
 */
export function BlameView({ workspaceId, pathId, path, onLeave }: { workspaceId: number; pathId: string; path: string; onLeave: () => void }) {
  const blame = useFileBlame(workspaceId, pathId)
  if (blame.isError) {
    const error = blame.error
    if (error instanceof RetraceError && (error.code === 'VALIDATION' || error.code === 'NOT_FOUND')) {
      return <FileNotice title="No blame for this file">{<p>{error.message}</p>}</FileNotice>
    }
    return <ErrorState title="Could not blame this file" error={error} onRetry={() => void blame.refetch()} />
  }
  if (!blame.data) return <Loading label="Finding who wrote each line…" />
  return <BlameLines blame={blame.data} path={path} onLeave={onLeave} />
}

function BlameLines({ blame, path, onLeave }: { blame: Blame; path: string; onLeave: () => void }) {
  const jump = useJumpToTurn(onLeave)
  const lines = useMemo((): BlameLine[] => {
    const language = languageOfPath(path)
    const colours = chunkLines(blame.lines, language ? (code: string) => highlight(code, language) : null)
    const rows: BlameLine[] = []
    blame.runs.forEach((run, index) => {
      for (let i = 0; i < run.count; i += 1) {
        const no = run.start + i
        rows.push({ no, text: blame.lines[no - 1] ?? '', colour: colours[no - 1] ?? null, origin: blame.origins[run.origin] ?? null, run: index, first: i === 0 })
      }
    })
    return rows
  }, [blame, path])
  const turns = new Set(blame.origins.filter((origin) => origin.kind === 'turn').map((origin) => `${origin.sessionId ?? ''}:${origin.turn ?? ''}`)).size
  const deletedBy = blame.deletedBy === null ? null : blame.origins[blame.deletedBy]

  return (
    <section className="blame" aria-label={`Who wrote each line of ${path}`} data-testid="file-blame">
      <p className="blame-summary muted">
        {blame.lines.length} lines · {blame.versions} versions · {turns} agent turns
        {blame.disk === 'changed' ? ' · changed on disk since the last recorded version (shown as “changed since”)' : ''}
        {blame.disk === 'absent' ? ` · not on disk now: its last recorded lines${deletedBy ? `, before ${plainLabelOf(deletedBy)} deleted it` : ''}` : ''}
      </p>
      {jump.error ? (
        <p className="file-inline-error" role="alert">
          {jump.error}
        </p>
      ) : null}
      {blame.lines.length === 0 ? (
        <FileNotice title="This version is empty" />
      ) : (
        <VirtualLines
          rows={lines}
          rowKey={(line) => String(line.no)}
          renderRow={(line) => <BlameRow line={line} onJump={jump.to} />}
          label={`Lines of ${path} with who wrote them`}
          gutterDigits={String(lines.length).length}
          testId="blame-lines"
        />
      )}
    </section>
  )
}

function BlameRow({ line, onJump }: { line: BlameLine; onJump: (origin: BlameOrigin) => void }) {
  const origin = line.origin
  const shade = line.run % 2 === 0 ? 'blame-even' : 'blame-odd'
  const tip = origin ? tooltipOf(origin) : ''
  return (
    <div className={`diff-line version-line blame-line ${shade} ${line.first ? 'blame-first' : ''} blame-${origin?.kind ?? 'turn'}`}>
      <span className="blame-who" title={tip}>
        {line.first && origin ? (
          origin.kind === 'turn' && origin.sessionId ? (
            <button type="button" className="blame-origin" data-testid="blame-origin" onClick={() => onJump(origin)} aria-label={`${tip}. Open this turn`}>
              {labelOf(origin)}
            </button>
          ) : (
            <span className="blame-origin blame-origin-other" data-testid="blame-origin">
              {labelOf(origin)}
            </span>
          )
        ) : null}
      </span>
      <span className="line-no">{line.no}</span>
      <CodeText text={line.text} html={lineHtml(line.colour)} />
    </div>
  )
}

/** The gutter's short label: "Codex CLI · turn 3 · 25 Nov" (the date goes first when narrow), or what wrote it when no turn did. */
function labelOf(origin: BlameOrigin): ReactNode {
  const when = origin.createdAt === null ? null : <span className="blame-date"> · {new Date(origin.createdAt).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}</span>
  switch (origin.kind) {
    case 'turn':
      return (
        <>
          {origin.source ? sourceLabel(origin.source) : '?'} · turn {origin.turn ?? '?'}
          {when}
        </>
      )
    case 'rewind':
      return <>a rewind{when}</>
    case 'outside':
      return <>outside any turn{when}</>
    case 'earlier':
      return 'already there'
    case 'disk':
      return 'changed since'
  }
}

/** The same in words, for the summary line. */
function plainLabelOf(origin: BlameOrigin): string {
  return origin.kind === 'turn' ? `turn ${origin.turn ?? '?'} of “${origin.sessionTitle ?? 'untitled'}”` : 'a rewind'
}

function tooltipOf(origin: BlameOrigin): string {
  const when = origin.createdAt === null ? '' : formatDateTime(origin.createdAt)
  const session = `“${origin.sessionTitle ?? 'untitled'}” (${origin.source ? sourceLabel(origin.source) : '?'})`
  switch (origin.kind) {
    case 'turn':
      return [`Turn ${origin.turn ?? '?'} of ${session}`, when, origin.prompt ? `Prompt: ${origin.prompt}` : ''].filter(Boolean).join('\n')
    case 'rewind':
      return `Written by a rewind, ${when}, from no recorded version`
    case 'outside':
      return `Changed outside any agent turn; first seen by turn ${origin.turn ?? '?'} of ${session}, ${when}`
    case 'earlier':
      return `Already in the file when Retrace first saw it (turn ${origin.turn ?? '?'} of ${session})`
    case 'disk':
      return 'Changed on disk since the last recorded version: no agent turn wrote it'
  }
}

/** Open a turn in its session's transcript (closing the dialog first), as the history's button does. */
function useJumpToTurn(onLeave: () => void) {
  const queryClient = useQueryClient()
  const openMessage = useUiStore((state) => state.openMessage)
  const [error, setError] = useState<string | null>(null)
  const to = (origin: BlameOrigin) => {
    const sessionId = origin.sessionId
    if (!sessionId || origin.turn === null) return
    void (async () => {
      try {
        const detail = await queryClient.fetchQuery({ queryKey: sessionKeys.detail(sessionId), queryFn: () => call('sessions.get', { sessionId }) })
        const checkpoint = detail.checkpoints.find((candidate) => candidate.turn === origin.turn)
        onLeave()
        openMessage({ workspaceId: detail.workspaceId, sessionId, seq: checkpoint?.messagesBefore ?? 0 })
      } catch {
        setError('That session could not be opened.')
      }
    })()
  }
  return { to, error }
}
