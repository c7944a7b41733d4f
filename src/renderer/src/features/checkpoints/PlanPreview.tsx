import { useId } from 'react'
import { plural } from '../../lib/format'
import {
  CHOICE_LABELS,
  choiceFor,
  countChanges,
  groupPlan,
  isExcludable,
  needsConsent,
  type Choices,
  type Confirmations,
  type ConflictChoice,
  type Exclusions,
  type PlanItem
} from './plan-model'
import { CHOICES, EntryFacts, PlanRow } from './PlanRow'
import type { PlanTarget } from './queries'

export interface PlanPreviewProps {
  items: readonly PlanItem[]
  /** The workspace folder the rewind writes in. */
  root: string
  choices: Choices
  onChoose: (pathIds: string[], choice: ConflictChoice) => void
  confirmed: Confirmations
  onConfirm: (pathId: string, confirmed: boolean) => void
  /** The plan undoes a rewind: it restores what the rewind replaced, not what the agent changed. */
  undo?: boolean
  /** The files the user unticked, left out of the rewind. */
  excluded: Exclusions
  onExclude: (pathId: string, excluded: boolean) => void
  /** What the preview is of, and its token: each row's diff is fetched for exactly this preview. */
  target: PlanTarget
  token: string
}

/**
 * A rewind's preview, before anything is written: in which folder; what will be restored,
 * re-created, deleted or get its permissions back, with each entry's kind, mode change and link
 * target; what conflicts (with a choice per file); which files run code or grant access and
 * come from a history this computer did not record (each written only if ticked); what Retrace
 * refuses to touch and why; what already matches.
 */
export function PlanPreview({ items, root, choices, onChoose, confirmed, onConfirm, excluded, onExclude, target, token, undo = false }: PlanPreviewProps) {
  const { groups, refused, unchanged, conflicts } = groupPlan(items, undo)
  const changes = countChanges(items, choices, confirmed, excluded)
  const unticked = items.filter((item) => isExcludable(item) && excluded.has(item.pathId)).length
  const consent = items.filter(needsConsent)
  const allId = useId()
  const where = (
    <p className="plan-root" data-testid="rewind-root">
      In <span className="mono">{root}</span>
    </p>
  )

  if (groups.length === 0 && refused.length === 0) {
    return (
      <>
        {where}
        <p className="plan-nothing" data-testid="rewind-nothing" role="status">
          Nothing to do: every file this {undo ? 'undo covers already holds what it had before the rewind' : 'rewind covers already matches that point'}
          {unchanged.length > 0 ? ` (${plural(unchanged.length, 'file')})` : ''}.
        </p>
      </>
    )
  }

  return (
    <div className="plan" data-testid="rewind-plan">
      {where}
      <p className="plan-summary" role="status">
        {changes === 0 ? 'No file will change' : `${plural(changes, 'file')} will change`}
        {conflicts.length > 0 ? ` · ${plural(conflicts.length, 'conflict')}` : ''}
        {unticked > 0 ? ` · ${unticked} unticked` : ''}
        {consent.length > 0 ? ` · ${consent.length} to confirm` : ''}
        {refused.length > 0 ? ` · ${refused.length} refused` : ''}
        {unchanged.length > 0 ? ` · ${unchanged.length} already matching` : ''}
      </p>

      {consent.length > 0 ? (
        <p className="dialog-warning" role="note" data-testid="rewind-consent-note">
          {consent.length === 1 ? 'One file runs code or grants access' : `${consent.length} files run code or grant access`} (named below) and{' '}
          {consent.length === 1 ? 'comes' : 'come'} from a history this computer did not record: an imported or foreign history can plant such files. Each is written only if you tick it.
        </p>
      ) : null}

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
              <PlanRow
                key={item.pathId}
                item={item}
                choice={choiceFor(item, choices)}
                onChoose={(choice) => onChoose([item.pathId], choice)}
                confirmed={confirmed.has(item.pathId)}
                onConfirm={(on) => onConfirm(item.pathId, on)}
                leftBy={undo ? 'the rewind' : 'the agent'}
                excluded={excluded.has(item.pathId)}
                onExclude={(off) => onExclude(item.pathId, off)}
                target={target}
                token={token}
              />
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
                <EntryFacts item={item} />
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
