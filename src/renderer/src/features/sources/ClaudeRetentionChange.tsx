import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { createPortal } from 'react-dom'
import type { RetentionStatus } from '../../../../shared/contract'
import { call } from '../../api/client'
import { errorMessage } from '../../lib/errors'
import { Modal } from '../../ui/Modal'
import { retentionKeys } from '../../state/query-keys'

/** What a longer retention means here: a year. */
export const LONGER_DAYS = 365

/**
 * Make Claude Code keep its own files longer: writes `cleanupPeriodDays` into its settings.json
 * only once the user confirms what will be written where, with a copy of the file kept beside
 * it, and an undo that puts the very bytes back (refused if the file changed since).
 */
export function ClaudeRetentionChange({ status }: { status: RetentionStatus }) {
  const queryClient = useQueryClient()
  const [opener, setOpener] = useState<HTMLElement | null>(null)
  const refresh = () => void queryClient.invalidateQueries({ queryKey: retentionKeys.status })
  const set = useMutation({
    mutationFn: () => call('retention.setClaude', { days: LONGER_DAYS }),
    onSuccess: () => {
      setOpener(null)
      refresh()
    }
  })
  const undo = useMutation({ mutationFn: () => call('retention.undoClaude', {}), onSuccess: refresh })
  const claude = status.agents.find((agent) => agent.source === 'claude-code')
  const change = status.claudeChange
  const error = set.error ?? undo.error
  return (
    <span className="retention-notice-actions">
      {claude?.settingsFile && claude.deletesAfterDays !== null && claude.deletesAfterDays < LONGER_DAYS ? (
        <button type="button" className="button small" data-testid="retention-set-open" onClick={(event) => setOpener(event.currentTarget)}>
          Keep {LONGER_DAYS} days in Claude Code…
        </button>
      ) : null}
      {change ? (
        <button type="button" className="button small ghost" data-testid="retention-undo" disabled={undo.isPending} title={`Put ${change.file} back as it was before Retrace changed it`} onClick={() => undo.mutate()}>
          Undo the change to Claude Code&apos;s settings
        </button>
      ) : null}
      {error && !opener ? (
        <span className="open-error" role="alert">
          {errorMessage(error)}
        </span>
      ) : null}
      {opener && claude?.settingsFile
        ? createPortal(
            <Modal
              title="Keep Claude Code's sessions longer"
              onClose={() => setOpener(null)}
              canClose={!set.isPending}
              returnFocusTo={opener}
              testId="retention-set-dialog"
              footer={
                <>
                  <button type="button" className="button" onClick={() => setOpener(null)} disabled={set.isPending}>
                    Cancel
                  </button>
                  <button type="button" className="button primary" data-testid="retention-set-confirm" data-autofocus onClick={() => set.mutate()} disabled={set.isPending}>
                    Write the setting
                  </button>
                </>
              }
            >
              <p>
                Retrace will write <span className="mono">&quot;cleanupPeriodDays&quot;: {LONGER_DAYS}</span> into <span className="mono">{claude.settingsFile}</span> (now{' '}
                {claude.deletesAfterDays} days, {claude.origin === 'default' ? "Claude Code's default" : 'set there'}). Nothing else in the file changes.
              </p>
              <p>A copy of the file as it is now is kept beside it. The change can be undone here or with <span className="mono">retrace doctor --undo-claude-retention</span>.</p>
              {set.error ? (
                <p className="open-error" role="alert">
                  {errorMessage(set.error)}
                </p>
              ) : null}
            </Modal>,
            document.body
          )
        : null}
    </span>
  )
}
