import type { Message } from '../../../../shared/contract'

/** How long a message stays the newest one at normal speed, before the next appears. */
const PACE_MS: Record<Message['role'], number> = {
  user: 1400,
  assistant: 1100,
  reasoning: 700,
  tool_call: 700,
  tool_result: 500,
  system: 500,
  compaction_summary: 900
}

/** The pause before revealing the message after `current` (null: the first one comes at once). */
export function delayAfter(current: Message | null, speed: number): number {
  if (!current) return 0
  return PACE_MS[current.role] / speed
}

/**
 * How many messages to reveal to show turn `turn` to its end: everything before the first
 * message of a later turn. Null when that message is not loaded yet and more pages exist.
 */
export function revealThroughTurn(messages: readonly Message[], turn: number, morePages: boolean): number | null {
  const after = messages.findIndex((message) => message.turn > turn)
  if (after >= 0) return after
  return morePages ? null : messages.length
}

/** The turn the replay is in: that of the newest message shown (0 before the first prompt). */
export function currentTurn(messages: readonly Message[], revealed: number): number {
  return messages[Math.min(revealed, messages.length) - 1]?.turn ?? 0
}

/**
 * How many messages to reveal for the scrubber's position `count`: that many once they are
 * loaded (all there are when no page is left); null while their page is still to come.
 */
export function revealForScrub(loaded: number, count: number, morePages: boolean): number | null {
  const wanted = Math.max(0, count)
  if (wanted <= loaded) return wanted
  return morePages ? null : loaded
}

/** What a screen reader says of the scrubber's position. */
export function scrubLabel(messages: readonly Message[], revealed: number, total: number): string {
  if (revealed === 0) return `Not started, ${total} messages`
  const turn = currentTurn(messages, revealed)
  return `Message ${Math.min(revealed, total)} of ${total}${turn > 0 ? `, turn ${turn}` : ''}`
}

/** Scrubber positions where a turn ends (the count of messages through it), for tick marks. */
export function turnEnds(messages: readonly Message[]): number[] {
  const ends: number[] = []
  messages.forEach((message, index) => {
    const next = messages[index + 1]
    if (next && next.turn !== message.turn) ends.push(index + 1)
  })
  return ends
}
