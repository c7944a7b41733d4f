import { formatDateTime, relativeTime } from '../lib/format'

/** "3 hours ago", with the exact time in a tooltip and for assistive tech via <time>. */
export function RelativeTime({ at }: { at: number }) {
  return (
    <time dateTime={new Date(at).toISOString()} title={formatDateTime(at)}>
      {relativeTime(at)}
    </time>
  )
}
