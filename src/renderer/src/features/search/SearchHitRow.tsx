import type { MessageRole, SearchHit } from '../../../../shared/contract'
import { RelativeTime } from '../../ui/RelativeTime'
import { Snippet } from './Snippet'

const ROLE_LABELS: Record<MessageRole, string> = {
  user: 'user',
  assistant: 'assistant',
  reasoning: 'reasoning',
  tool_call: 'tool call',
  tool_result: 'tool result',
  system: 'system',
  compaction_summary: 'compaction summary'
}

export function SearchHitRow({ hit, onOpen }: { hit: SearchHit; onOpen: (hit: SearchHit) => void }) {
  return (
    <button type="button" className="search-hit" data-testid="search-result" onClick={() => onOpen(hit)}>
      <span className="hit-where">
        <span className="hit-workspace">{hit.workspaceName}</span>
        <span aria-hidden="true"> › </span>
        <span className="hit-session">{hit.sessionTitle || 'Untitled session'}</span>
      </span>
      <span className="hit-meta">
        {hit.turn === 0 ? 'before the first prompt' : `turn ${hit.turn}`} · {ROLE_LABELS[hit.role]}
        {hit.createdAt !== null ? (
          <>
            {' · '}
            <RelativeTime at={hit.createdAt} />
          </>
        ) : null}
      </span>
      <Snippet parts={hit.snippet} />
    </button>
  )
}
