import type { ReactNode } from 'react'
import { errorMessage } from '../lib/errors'

/** Nothing to show, and what the user can do about it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state" data-testid="empty-state" role="status">
      <p className="state-title">{title}</p>
      {children ? <div className="state-body">{children}</div> : null}
    </div>
  )
}

/** A failed load: the server's message (written for users) and a way to try again. */
export function ErrorState({
  title,
  error,
  onRetry,
  actionLabel = 'Try again'
}: {
  title: string
  error: unknown
  onRetry?: () => void
  actionLabel?: string
}) {
  return (
    <div className="state state-error" data-testid="error-state" role="alert">
      <p className="state-title">{title}</p>
      <p className="state-body">{errorMessage(error)}</p>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          {actionLabel}
        </button>
      ) : null}
    </div>
  )
}

/** Grey placeholder rows while the first page loads; hidden from screen readers. */
export function SkeletonRows({ count, className = '' }: { count: number; className?: string }) {
  return (
    <div className={`skeleton-rows ${className}`} aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="skeleton-row">
          <span className="skeleton-line" style={{ width: `${55 + ((index * 17) % 35)}%` }} />
          <span className="skeleton-line short" />
        </div>
      ))}
    </div>
  )
}

/** Accessible loading announcement for spots that have no skeleton. */
export function Loading({ label }: { label: string }) {
  return (
    <p className="loading" role="status">
      {label}
    </p>
  )
}
