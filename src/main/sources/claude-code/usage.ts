import type { Usage } from '../../../shared/contract'
import type { ApiUsage } from './schema'
import type { BoundedMap } from './bounded-map'
import type { Attributed } from './state'

const KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const

/**
 * The usage to attach for one line of response `messageId`. One API response is written as
 * several lines, each with the usage known when it was written: input and cache counts are
 * final from the first line, output tokens grow until the last (the fixtures show 4, 4, 4, 395).
 * The first line's record gets the counts as they are; a later line of the same response
 * carries only what grew since (the output tokens streamed meanwhile). Summed per response, the
 * records give its final usage, counted once. `seen` remembers what each response was given.
 * Null when there is nothing (new) to attach.
 */
export function attributeUsage(seen: BoundedMap<Attributed>, messageId: string | null, raw: ApiUsage): Partial<Usage> | null {
  const present = [raw.input_tokens, raw.output_tokens, raw.cache_read_input_tokens, raw.cache_creation_input_tokens]
  const now = present.map((value) => value ?? 0) as Attributed
  const before = messageId === null ? undefined : seen.get(messageId)
  const usage: Partial<Usage> = {}
  let any = false
  KEYS.forEach((key, i) => {
    const value = now[i] ?? 0
    if (before === undefined) {
      if (present[i] == null) return
      usage[key] = value
    } else {
      const grown = value - (before[i] ?? 0)
      if (grown <= 0) return
      usage[key] = grown
    }
    any = true
  })
  if (messageId !== null) seen.set(messageId, before ? (now.map((value, i) => Math.max(value, before[i] ?? 0)) as Attributed) : now)
  return any ? usage : null
}
