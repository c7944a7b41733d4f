import type { Usage } from '../../../../../shared/contract'
import { formatUsage } from '../../../lib/format'

export function UsageLine({ usage }: { usage: Usage }) {
  return (
    <div className="usage" data-testid="usage" title="Tokens for this response: input, output, cache read/write, cost">
      {formatUsage(usage)}
    </div>
  )
}
