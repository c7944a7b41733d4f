import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { plural } from '../../lib/format'
import { filesKeys } from '../../state/query-keys'

/**
 * The shell commands a turn ran that may have changed files no tool reported, under its "not
 * captured" notice: the ones it counts, read back from its tool calls (read-only ones are not
 * counted, so not listed). Fewer are listed than counted for a session imported before read-only
 * commands were left out of the count, or a source whose calls name their command otherwise.
 */
export function UncapturedCommands({ sessionId, turn, counted }: { sessionId: string; turn: number; counted: number }) {
  const commands = useQuery({ queryKey: [...filesKeys.turn(sessionId, turn), 'shell-commands'], queryFn: () => call('changes.shellCommands', { sessionId, turn }) })
  const items = commands.data?.items ?? []
  if (items.length === 0) return null
  const unnamed = counted - items.length
  return (
    <>
      <ol className="uncaptured-commands" data-testid="uncaptured-commands">
        {items.map((item) => (
          <li key={item.seq}>
            <code title={item.command}>{item.command}</code>
          </li>
        ))}
      </ol>
      {unnamed > 0 ? (
        <div className="muted">
          {plural(unnamed, 'more')} counted than listed: read-only commands an import before this version counted (a re-import recounts), or commands the agent recorded in another form.
        </div>
      ) : null}
    </>
  )
}
