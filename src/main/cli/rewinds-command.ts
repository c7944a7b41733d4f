import type { CliCall } from './call'
import type { Output } from './commands'
import { formatTime, table } from './format'

/** `retrace rewinds <session-id> [--json]`: a session's rewinds (and their undos), oldest first, with the ids `retrace undo` takes. */
export async function rewindsCommand(call: CliCall, options: { sessionId: string; json: boolean; io: Output }): Promise<void> {
  const { items } = await call('rewind.list', { sessionId: options.sessionId })
  if (options.json) return options.io.out(JSON.stringify(items, null, 2))
  if (items.length === 0) return options.io.out('This session has not been rewound.')
  const rows = items.map((rewind) => [
    rewind.id,
    formatTime(rewind.createdAt),
    rewind.status,
    rewind.undoOf ? `undo of ${rewind.undoOf.slice(0, 8)}` : rewind.targetTurn === null ? 'one file restored' : `to before turn ${rewind.targetTurn}`,
    `${rewind.changed} file${rewind.changed === 1 ? '' : 's'}`
  ])
  options.io.out(table(['id', 'when', 'status', 'what', 'changed'], rows))
  options.io.out('\nPut back what one replaced: retrace undo <rewind-id> (its first characters will do).')
}
