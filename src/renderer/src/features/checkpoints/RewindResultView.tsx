import { plural } from '../../lib/format'
import { changedPathCount, changedRows, keptCopies, type RewindResult } from './plan-model'

/** After a rewind or undo: what changed, what was skipped or refused, where kept copies went. */
export function RewindResultView({
  result,
  undo,
  turn,
  historyOf = null,
  restoredTo = null
}: {
  result: RewindResult
  undo: boolean
  turn: number | null
  /** The session whose Rewinds list holds it, when it is not the one on screen. */
  historyOf?: string | null
  /** A one-file restore: "src/a.ts to the file after turn 2 of …". */
  restoredTo?: string | null
}) {
  const kept = keptCopies(result)
  const changed = changedPathCount(result)
  return (
    <div className="rewind-result" data-testid="rewind-result">
      <p className="rewind-result-title" role="status">
        {changed === 0 ? 'No file was changed.' : restoredTo ? `Restored ${restoredTo}.` : undo ? `Undone: ${plural(changed, 'file')} put back.` : `Rewound ${plural(changed, 'file')} to before turn ${turn ?? '?'}.`}
      </p>
      <p className="rewind-counts">
        <span data-testid="result-changed">{changed} changed</span> · <span data-testid="result-skipped">{result.skipped.length} skipped</span> ·{' '}
        <span data-testid="result-refused">{result.refused.length} refused</span>
      </p>
      {kept.length > 0 ? (
        <div className="rewind-kept" data-testid="result-kept">
          <p>Your versions were kept beside the restored files:</p>
          <ul>
            {kept.map((copy) => (
              <li key={copy.keptAs}>
                <span className="mono">{copy.path}</span> → <span className="mono">{copy.keptAs}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {(result.keptDuring ?? []).length > 0 ? (
        <div className="rewind-kept" data-testid="result-kept-during">
          <p>Written to by another program while the rewind ran: that version was kept, not overwritten{(result.keptDuring ?? []).some((copy) => copy.hash !== null) ? ', and saved in Retrace' : ''}:</p>
          <ul>
            {(result.keptDuring ?? []).map((copy) => (
              <li key={copy.keptAs}>
                <span className="mono">{copy.path}</span> → <span className="mono">{copy.keptAs}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.changed.length > 0 ? (
        <ResultList title="Changed" items={changedRows(result)} />
      ) : null}
      {result.skipped.length > 0 ? <ResultList title="Skipped (left as they were)" items={result.skipped.map((item) => ({ key: item.pathId, path: item.path, note: 'a skipped conflict or an unticked file' }))} /> : null}
      {result.refused.length > 0 ? <ResultList title="Refused (not touched)" wide items={result.refused.map((item) => ({ key: item.pathId, path: item.path, note: item.reason }))} /> : null}
      {restoredTo ? (
        <p className="muted">
          You can undo this now with the button below. Rewind id <span className="mono">{result.rewindId}</span>.
        </p>
      ) : (
      <p className="muted">
        {undo ? 'This undo is a rewind too: it can be undone, here or later' : 'You can undo this rewind now, or later'} under <strong>Session ▾ → Rewinds</strong> in the header of {historyOf === null ? 'this session' : `“${historyOf}”`}, where
        it is the newest entry{historyLabel(undo, turn)}.
      </p>
      )}
    </div>
  )
}

/** How the Rewinds list names it (history-model.ts's describeRewind): people find it by turn and time, not by id. */
function historyLabel(undo: boolean, turn: number | null): string {
  return undo || turn === null ? '' : `, “Files back to before turn ${turn}”`
}

/** `wide`: notes are sentences (a refusal's reason), shown under the path rather than beside it. */
function ResultList({ title, items, wide = false }: { title: string; items: { key: string; path: string; note: string }[]; wide?: boolean }) {
  return (
    <section className="result-list" aria-label={title}>
      <h3 className="plan-group-title">
        {title} <span className="plan-count">{items.length}</span>
      </h3>
      <ul className="plan-items">
        {items.map((item) => (
          <li key={item.key} className="plan-item" data-testid="result-item" data-path={item.path}>
            <span className="plan-path mono">{item.path}</span>
            <span className={wide ? 'result-note-wide muted' : 'muted'}>{item.note}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
