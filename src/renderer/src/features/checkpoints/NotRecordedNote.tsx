import type { Checkpoint } from '../../../../shared/contract'
import { SHELL_CAPTURE_HINT } from '../../../../shared/shell-capture'
import { notCapturedLine } from '../../lib/coverage-text'
import { plural } from '../../lib/format'

/** Entries listed by name in the preview; the rest are counted (each turn's header lists its own). */
const MAX_LISTED = 20

/**
 * Above a rewind's preview (and a fork's with files): what in the turns it goes back over it
 * cannot put back — changes the history shows but Retrace could not record, with path, tool and
 * why; shell commands whose changes no scan saw; an agent that keeps no file content. Said
 * before the user applies, plainly, in the colour of a note rather than an error.
 */
export function NotRecordedNote({ checkpoints, fromTurn, agentKeepsNoContent }: { checkpoints: readonly Checkpoint[]; fromTurn: number; agentKeepsNoContent: boolean }) {
  const turns = checkpoints.filter((checkpoint) => checkpoint.turn >= fromTurn)
  const entries = turns.flatMap((checkpoint) => checkpoint.notCaptured)
  const commandTurns = turns.filter((checkpoint) => checkpoint.uncapturedCommands > 0)
  if (entries.length === 0 && commandTurns.length === 0 && !agentKeepsNoContent) return null
  const one = entries.length === 1
  return (
    <div className="rewind-not-recorded" role="note" data-testid="rewind-not-recorded">
      {agentKeepsNoContent ? (
        <p data-testid="rewind-no-content">
          <strong>This agent keeps no file content</strong> in its history: the files it changed cannot be put back from it. Only changes Retrace saw itself are in this preview.
        </p>
      ) : null}
      {entries.length > 0 ? (
        <>
          <p className="rewind-not-recorded-title" data-testid="rewind-not-recorded-title">
            <strong>
              {plural(entries.length, 'change')} in {turns.length === 1 ? 'this turn' : 'these turns'} {one ? 'is' : 'are'} not recorded:
            </strong>{' '}
            this rewind leaves {one ? 'it' : 'them'} as {one ? 'it is' : 'they are'}.
          </p>
          <ul className="rewind-not-recorded-list">
            {entries.slice(0, MAX_LISTED).map((entry, index) => (
              <li key={index} data-testid="rewind-not-recorded-change">
                <span className="mono">{entry.path ?? 'a file the agent did not name'}</span> <span className="muted">{notCapturedLine(entry, true)}</span>
              </li>
            ))}
          </ul>
          {entries.length > MAX_LISTED ? <p className="muted">and {entries.length - MAX_LISTED} more (each turn’s header lists its own).</p> : null}
        </>
      ) : null}
      {commandTurns.length > 0 ? (
        <p data-testid="rewind-uncaptured-commands">
          {commandTurns.length === 1 ? `Turn ${commandTurns[0]?.turn ?? ''}` : `Turns ${commandTurns.map((t) => t.turn).join(', ')}`} ran shell commands whose file changes were not captured: files those commands changed
          are not in this preview and will not be rewound. {SHELL_CAPTURE_HINT}
        </p>
      ) : null}
    </div>
  )
}
