import { useEffect, useState } from 'react'
import type { SecretFindingDto } from '../../../../shared/contract'
import { onEvent } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { plural } from '../../lib/format'
import { Loading } from '../../ui/States'

// What the session's and the workspace's export dialogs share: the secret review, the scan's
// progress, and the choice to replace the local folder path.

interface ReviewQuery {
  data?: { findings: SecretFindingDto[]; scannedTexts: number } | undefined
  isError: boolean
  error: unknown
  refetch: () => unknown
}

export function AnonymizePathCheck({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="dialog-check">
      <input type="checkbox" data-testid="export-anonymize-path" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Replace the workspace’s local folder path with its name everywhere (and your home folder with ~)
    </label>
  )
}

export function Review({
  review,
  progress,
  findings,
  kept,
  onToggle
}: {
  review: ReviewQuery
  progress: { done: number; total: number } | null
  findings: SecretFindingDto[]
  kept: ReadonlySet<string>
  onToggle: (id: string) => void
}) {
  if (review.isError) {
    return (
      <div className="dialog-error" role="alert">
        <p className="dialog-error-title">Could not scan the session for secrets</p>
        <p>{errorMessage(review.error)}</p>
        <button type="button" className="button" onClick={() => void review.refetch()}>
          Scan again
        </button>
      </div>
    )
  }
  if (!review.data) return <Loading label={progress ? `Looking for secrets… ${progress.done} of ${progress.total} texts` : 'Looking for secrets…'} />
  if (findings.length === 0) {
    return (
      <p className="export-review-none" data-testid="export-review" data-findings="0">
        No secrets found in {plural(review.data.scannedTexts, 'text')} (messages, tool calls, diffs, file names and, with files, their contents).
      </p>
    )
  }
  return (
    <div className="export-review" data-testid="export-review" data-findings={findings.length}>
      <p>
        {plural(findings.length, 'possible secret')} will be replaced by <code>[REDACTED: …]</code>. Keep one only if it is not a secret.
      </p>
      <ul className="export-findings">
        {findings.map((finding) => (
          <li key={finding.id} className={kept.has(finding.id) ? 'kept' : undefined} data-testid="export-finding" data-rule={finding.ruleId}>
            <label>
              <input type="checkbox" checked={kept.has(finding.id)} onChange={() => onToggle(finding.id)} aria-label={`Keep ${finding.ruleName} in ${finding.placeLabel} (not a secret)`} />
              <span className="export-finding-rule">{finding.ruleName}</span>
              <span className="export-finding-place muted">{finding.placeLabel}</span>
              <code className="export-finding-excerpt">{finding.excerpt}</code>
              <span className="export-finding-keep muted">{kept.has(finding.id) ? 'kept' : 'keep'}</span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The running scan's progress for this session, or `workspace:<id>` (export.progress events). */
export function useScanProgress(scanKey: string): { done: number; total: number } | null {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)
  useEffect(
    () =>
      onEvent((event) => {
        if (event.name === 'export.progress' && event.payload.sessionId === scanKey) setProgress({ done: event.payload.done, total: event.payload.total })
      }),
    [scanKey]
  )
  return progress
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
