import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { SourcesButton } from './SourcesButton'

/**
 * For a workspace with no session: where each source looked (its defaults and environment
 * overrides, resolved), so "nothing here" can be told from "looking in the wrong place", and
 * the way to Sources, where a folder holding a history elsewhere is added.
 */
export function WhereLooked({ workspaceId }: { workspaceId: number }) {
  const sources = useQuery({ queryKey: ['sources'], queryFn: () => call('sources.list', {}) })
  return (
    <div className="where-looked" data-testid="where-looked">
      <p>Retrace found no agent history recorded in this folder.</p>
      <p>
        History kept elsewhere (a copied <span className="mono">~/.claude</span>, another disk)? Add its folder in <SourcesButton workspaceId={workspaceId} />.
      </p>
      <p>Where each source looked:</p>
      <ul>
        {sources.data?.items.map((item) => (
          <li key={item.name} data-testid="where-looked-source">
            <span className="source-name">{item.label}</span> <span className="muted">{item.looksIn}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
