import { sourceLabel } from '../../../shared/source-labels'

/**
 * The source a session came from, by its id as the agent names it (`native`, `claude-code`…),
 * with a tooltip saying what that means: the id alone does not tell a reader that `native` is
 * Retrace's own recording.
 */
export function SourceTag({ source, className }: { source: string; className: string }) {
  return (
    <span className={className} title={sourceTitle(source)}>
      {source}
    </span>
  )
}

function sourceTitle(source: string): string {
  if (source === 'native') return 'Recorded by Retrace itself, through its hooks or its API, rather than read from an agent’s own history.'
  return `Imported from ${sourceLabel(source)}’s own session history.`
}
