import { useQuery } from '@tanstack/react-query'
import { call } from '../../api/client'
import { plural } from '../../lib/format'
import { filesKeys } from '../../state/query-keys'

/**
 * The shell commands a turn ran that may have changed files no tool reported, under its "not
 * captured" notice: the ones it counts, read back from its tool calls (read-only ones are not
 * counted, so not listed). A source whose calls name their command otherwise shows fewer.
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
      {unnamed > 0 ? <div className="muted">{plural(unnamed, 'more command')} whose text the agent recorded otherwise.</div> : null}
    </>
  )
}
