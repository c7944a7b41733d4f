import { useId, useState } from 'react'
import { CHOICE_LABELS, choiceEffect, isConflict, isExcludable, kindNote, modeChange, needsConsent, sizeChange, type ConflictChoice, type PlanItem } from './plan-model'
import { PlanDiff } from './PlanDiff'
import type { PlanTarget } from './queries'

export const CHOICES: ConflictChoice[] = ['skip', 'overwrite', 'keep-both']

/** Size, kind and mode change of an entry, in one muted line. */
export function EntryFacts({ item }: { item: PlanItem }) {
  const kind = kindNote(item)
  const mode = modeChange(item)
  return (
    <span className="plan-size muted">
      {kind ? (
        <span className="plan-kind mono" data-testid="plan-kind" title="A symbolic link, and where it will point">
          {kind}
        </span>
      ) : null}
      {mode ? (
        <span className="plan-mode mono" data-testid="plan-mode" title="Permissions now → after the rewind (as ls -l shows them in octal)">
          {mode}
        </span>
      ) : null}
      <span title="Size now → size after the rewind">{sizeChange(item)}</span>
    </span>
  )
}

/** One file of a preview: its tick, its diff, its consent and its conflict choice. */
export function PlanRow({
  item,
  choice,
  onChoose,
  confirmed,
  onConfirm,
  excluded,
  onExclude,
  target,
  token,
  leftBy
}: {
  item: PlanItem
  choice: ConflictChoice
  onChoose: (choice: ConflictChoice) => void
  confirmed: boolean
  onConfirm: (confirmed: boolean) => void
  excluded: boolean
  onExclude: (excluded: boolean) => void
  target: PlanTarget
  token: string
  /** Who wrote the state the disk should hold: the agent (a rewind), or the rewind being undone. */
  leftBy: string
}) {
  const selectId = useId()
  const consentId = useId()
  const conflict = isConflict(item)
  const consent = needsConsent(item)
  const [open, setOpen] = useState(false)
  const excludable = isExcludable(item)
  const left = excludable && excluded
  // A permissions-only change writes the same content: there are no lines to show.
  const diffable = item.action !== 'mode'
  return (
    <li
      className={`plan-item${conflict ? ' conflict' : ''}${consent ? ' consent' : ''}${left ? ' excluded' : ''}`}
      data-testid="plan-item"
      data-path={item.path}
      data-conflict={conflict ? 'true' : undefined}
      data-consent={consent ? (confirmed ? 'ticked' : 'unticked') : undefined}
      data-excluded={excludable ? String(excluded) : undefined}
    >
      <span className="plan-path mono">
        {excludable ? (
          <input
            type="checkbox"
            className="plan-include"
            data-testid="plan-include"
            checked={!excluded}
            onChange={(event) => onExclude(!event.target.checked)}
            aria-label={`Include ${item.path} in the rewind`}
            title={excluded ? 'Left as it is: tick to include it in the rewind' : 'Untick to leave this file as it is'}
          />
        ) : null}
        {diffable ? (
          <button type="button" className="plan-diff-toggle" data-testid="plan-diff-toggle" aria-expanded={open} onClick={() => setOpen(!open)} title={open ? 'Hide the diff' : 'Show what the rewind changes in this file, line by line'}>
            <span aria-hidden="true" className="plan-diff-chevron">
              {open ? '▾' : '▸'}
            </span>
            {item.path}
          </button>
        ) : (
          item.path
        )}
      </span>
      <EntryFacts item={item} />
      {open ? <PlanDiff target={target} token={token} item={item} side="rewind" /> : null}
      {consent ? (
        <div className="plan-consent">
          <input id={consentId} type="checkbox" data-testid="confirm-sensitive" checked={confirmed} onChange={(event) => onConfirm(event.target.checked)} />
          <label htmlFor={consentId}>
            <strong>Write {item.path}</strong>: it {withoutPath(item.needsConfirmation ?? '', item.path)}.{' '}
            <span className="muted">{confirmed ? 'It will be written.' : 'Left as it is unless you tick this.'}</span>
          </label>
        </div>
      ) : null}
      {conflict ? (
        <div className="plan-conflict">
          <p className="plan-conflict-why">
            <span className="plan-conflict-badge">Conflict</span> {sentence(item.conflict ?? '')}{' '}
            <span className="muted">The disk no longer holds what {leftBy} left there, so this is someone else’s work (yours, another tool’s or another session’s).</span>
          </p>
          <PlanDiff target={target} token={token} item={item} side="yours" />
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

/** "runs code … (direnv): .envrc" → "runs code … (direnv)": the server names the path, the row shows it already. */
function withoutPath(reason: string, path: string): string {
  const suffix = `: ${path}`
  return reason.endsWith(suffix) ? reason.slice(0, -suffix.length) : reason
}

/** "changed since…" → "Changed since….": the server's phrase as a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return ''
  return `${trimmed[0]?.toUpperCase() ?? ''}${trimmed.slice(1)}${/[.!?]$/.test(trimmed) ? '' : '.'}`
}
