/**
 * Why a turn's Rewind button is disabled, or null when a rewind to before it has something to
 * put back: a rewind restores the files the session's turns changed from that turn on, so a turn
 * after the last one that changed a journaled file has nothing to rewind. `lastChangedTurn`
 * undefined: not known yet (the session's detail is loading), so the button stays enabled.
 */
export function nothingToRewindReason(turn: number, lastChangedTurn: number | null | undefined): string | null {
  if (lastChangedTurn === undefined) return null
  if (lastChangedTurn === null) return 'Nothing to rewind: no turn of this session changed a file that Retrace journaled.'
  if (turn > lastChangedTurn) return `Nothing to rewind: no file change was journaled in turn ${turn} or after it (the last was in turn ${lastChangedTurn}).`
  return null
}
