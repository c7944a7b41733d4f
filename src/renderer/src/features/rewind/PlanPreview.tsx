import { useId } from 'react'
import { plural } from '../../lib/format'
import {
  CHOICE_LABELS,
  choiceEffect,
  choiceFor,
  countChanges,
  groupPlan,
  isConflict,
  sizeChange,
  type Choices,
  type ConflictChoice,
  type PlanItem
} from './plan-model'

const CHOICES: ConflictChoice[] = ['skip', 'overwrite', 'keep-both']

/**
 * A rewind's preview, before anything is written: what will be restored, re-created, deleted
 * or get its permissions back; what conflicts (with a choice per file); what Retrace refuses to
 * touch and why; what already matches.
 */
export function PlanPreview({ items, choices, onChoose }: { items: readonly PlanItem[]; choices: Choices; onChoose: (pathIds: string[], choice: ConflictChoice) => void }) {
  const { groups, refused, unchanged, conflicts } = groupPlan(items)
  const changes = countChanges(items, choices)
  const allId = useId()

  if (groups.length === 0 && refused.length === 0) {
    return (
      <p className="plan-nothing" data-testid="rewind-nothing" role="status">
        Nothing to do: every file this rewind covers already matches that point{unchanged.length > 0 ? ` (${plural(unchanged.length, 'file')})` : ''}.
      </p>
    )
  }

  return (
    <div className="plan" data-testid="rewind-plan">
      <p className="plan-summary" role="status">
        {changes === 0 ? 'No file will change' : `${plural(changes, 'file')} will change`}
        {conflicts.length > 0 ? ` · ${plural(conflicts.length, 'conflict')}` : ''}
        {refused.length > 0 ? ` · ${refused.length} refused` : ''}
        {unchanged.length > 0 ? ` · ${unchanged.length} already matching` : ''}
      </p>

      {conflicts.length > 1 ? (
        <div className="plan-bulk">
          <label htmlFor={allId}>Every conflict:</label>
          <select
            id={allId}
            className="select"
            value={conflicts.every((item) => choiceFor(item, choices) === choiceFor(conflicts[0] as PlanItem, choices)) ? choiceFor(conflicts[0] as PlanItem, choices) : ''}
            onChange={(event) => onChoose(conflicts.map((item) => item.pathId), event.target.value as ConflictChoice)}
          >
            <option value="" disabled>
              (mixed)
            </option>
            {CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {CHOICE_LABELS[choice]}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      {groups.map((group) => (
        <section key={group.action} className="plan-group" data-testid="plan-group" data-action={group.action} aria-label={group.title}>
          <h3 className="plan-group-title">
            {group.title} <span className="plan-count">{group.items.length}</span>
          </h3>
          <p className="plan-explain muted">{group.explain}</p>
          <ul className="plan-items">
            {group.items.map((item) => (
              <PlanRow key={item.pathId} item={item} choice={choiceFor(item, choices)} onChoose={(choice) => onChoose([item.pathId], choice)} />
            ))}
          </ul>
        </section>
      ))}

      {refused.length > 0 ? (
        <section className="plan-group plan-refused" data-testid="plan-group" data-action="refused" aria-label="Refused">
          <h3 className="plan-group-title">
            Not touched: cannot be done safely <span className="plan-count">{refused.length}</span>
          </h3>
          <ul className="plan-items">
            {refused.map((item) => (
              <li key={item.pathId} className="plan-item" data-testid="plan-item" data-path={item.path}>
                <span className="plan-path mono">{item.path}</span>
                <span className="plan-reason">{item.refused}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {unchanged.length > 0 ? (
        <details className="plan-group plan-unchanged">
          <summary>
            Already matching <span className="plan-count">{unchanged.length}</span>
          </summary>
          <ul className="plan-items">
            {unchanged.map((item) => (
              <li key={item.pathId} className="plan-item" data-testid="plan-item-unchanged" data-path={item.path}>
                <span className="plan-path mono">{item.path}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  )
}

function PlanRow({ item, choice, onChoose }: { item: PlanItem; choice: ConflictChoice; onChoose: (choice: ConflictChoice) => void }) {
  const selectId = useId()
  const conflict = isConflict(item)
  return (
    <li className={`plan-item${conflict ? ' conflict' : ''}`} data-testid="plan-item" data-path={item.path} data-conflict={conflict ? 'true' : undefined}>
      <span className="plan-path mono">{item.path}</span>
      <span className="plan-size muted" title="Size now → size after the rewind">
        {sizeChange(item)}
      </span>
      {conflict ? (
        <div className="plan-conflict">
          <p className="plan-conflict-why">
            <span className="plan-conflict-badge">Conflict</span> {sentence(item.conflict ?? '')}{' '}
            <span className="muted">The disk no longer holds what the agent left there, so this is someone else’s work (yours, another tool’s or another session’s).</span>
          </p>
          <div className="plan-choice">
            <label htmlFor={selectId}>For this file:</label>
            <select id={selectId} className="select" data-testid="conflict-choice" value={choice} onChange={(event) => onChoose(event.target.value as ConflictChoice)}>
              {CHOICES.map((option) => (
                <option key={option} value={option}>
                  {CHOICE_LABELS[option]}
                </option>
              ))}
            </select>
            <span className="plan-effect">{choiceEffect(item, choice)}</span>
          </div>
        </div>
      ) : null}
    </li>
  )
}

/** "changed since…" → "Changed since….": the server's phrase as a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  return `${trimmed[0]?.toUpperCase() ?? ''}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`
}
