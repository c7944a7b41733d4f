import type { Message } from '../../../../../shared/contract'
import { plural } from '../../../lib/format'
import { useUiStore } from '../../../state/ui-store'
import { internalLabel } from '../internals'

/**
 * A run of Claude Code's internals folded into one dim line (`caveat · /exit · command output`);
 * clicking it shows every internal in the transcript, dimmed (the header's toggle hides them again).
 */
export function InternalsLine({ messages }: { messages: Message[] }) {
  const toggle = useUiStore((state) => state.toggleInternals)
  const labels = [...new Set(messages.map(internalLabel))]
  return (
    <button
      type="button"
      className="internals-line"
      data-testid="internals-line"
      data-seq={messages[0]?.seq}
      title="Claude Code's own bookkeeping, not part of the conversation. Click to show it."
      onClick={toggle}
    >
      <span aria-hidden="true">⋯</span> {plural(messages.length, 'Claude Code internal')}: {labels.join(' · ')}
    </button>
  )
}
