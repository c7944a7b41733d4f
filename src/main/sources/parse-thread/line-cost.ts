/**
 * What parsing one large line costs in memory, told from its bytes before they are decoded, and
 * where it may be parsed. A parse thread's heap is bounded (parse-thread.ts), and V8 does not
 * stop a `JSON.parse` that runs past a worker's limit: it aborts the whole process ("Reached heap
 * limit", exit 134). So a line is parsed only where its cost fits: in place when it fits the
 * thread's (or the main thread's) allowance, on a thread of its own sized for it otherwise, and
 * not at all (reported) past MAX_LINE_COST_MB.
 *
 * Measured on Node 22 (64-bit, no pointer compression): the parsed value of an empty array takes
 * 40 bytes, of an empty object 64, a short string 32, an object field 37, a number 8, with one
 * structural character (`[`, `{`, `,` or `:`) per value or field at least. 48 bytes per structural
 * character is above each. The bytes themselves cost up to 5 times their size: the text (two
 * bytes per character when it holds one beyond Latin-1), the strings parsed from it, and the
 * parser's copies of them in its records.
 */
export const COST_PER_STRUCTURE = 48
export const COST_PER_BYTE = 5
/** Lines shorter than this are parsed where they are read, unweighed: their cost is a few MB at most. */
export const WEIGHED_FROM_BYTES = 256 * 1024
/** Past this, a line is reported as not imported rather than parsed (a 48 MB line of `[]`s would take 1.5 GB). */
export const MAX_LINE_COST_MB = 1024
/** What a parse thread holds besides the line it parses (its modules, the chunk under way). */
export const THREAD_BASE_HEAP_MB = 64
/** What a line may cost on the main thread, which answers requests: more is parsed on a thread of its own. */
export const MAIN_THREAD_LINE_COST_MB = 16

const MB = 1024 * 1024
const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const COMMA = 0x2c
const COLON = 0x3a

/** A large line's weight: its structural characters outside strings, and the memory parsing it takes (MB). */
export interface LineWeight {
  structures: number
  costMb: number
}

/** Weigh a line's bytes (UTF-8: the structural characters are single bytes, never inside a multi-byte one). */
export function weighLine(bytes: Uint8Array): LineWeight {
  let structures = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    if (inString) {
      if (c === BACKSLASH) i += 1
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET || c === COMMA || c === COLON) structures += 1
  }
  return { structures, costMb: (COST_PER_BYTE * bytes.length + COST_PER_STRUCTURE * structures) / MB }
}

/** The heap a thread of its own needs to parse a line of this weight: its base, and the line's cost with a quarter more. */
export function heapMbForLine(weight: LineWeight): number {
  return THREAD_BASE_HEAP_MB + Math.ceil(weight.costMb * 1.25)
}

/** What a parse thread with a heap of `heapMb` may parse in place: the inverse of heapMbForLine, and at least 24 MB's worth on the usual 64 MB thread. */
export function lineCostAllowanceMb(heapMb: number): number {
  return Math.max((heapMb - THREAD_BASE_HEAP_MB) / 1.25, heapMb - 40, 0)
}

/** Why a line is not imported at all, or null when some thread can parse it. */
export function tooCostlyToParse(bytes: number, weight: LineWeight): string | null {
  if (weight.costMb <= MAX_LINE_COST_MB) return null
  return `line of ${(bytes / MB).toFixed(1)} MB holds ${weight.structures.toLocaleString('en-US')} values and fields: parsing it would take about ${Math.ceil(weight.costMb)} MB of memory, more than the ${MAX_LINE_COST_MB} MB one line may take, not imported`
}
