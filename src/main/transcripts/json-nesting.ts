/**
 * How deep arrays and objects may nest in what Retrace reads and stores. Validators (zod's
 * `z.json()`), serialisers and the window walk JSON values recursively, so a value nested a few
 * thousand levels deep overflows the stack wherever it goes next. 128 is serde_json's default
 * recursion limit, which Codex itself reads its rollouts with; real histories nest a few dozen
 * levels at most.
 */
export const MAX_JSON_NESTING = 128

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d

/**
 * Whether JSON text opens more than `limit` arrays and objects inside each other. A single
 * pass without recursion; the text need not be valid JSON (brackets inside strings do not count).
 */
export function jsonTextNestsDeeper(text: string, limit = MAX_JSON_NESTING): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) i = closingQuote(text, i)
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth -= 1
  }
  return false
}

/** Where the string opened at `open` ends (the text's length when it does not). */
function closingQuote(text: string, open: number): number {
  let at = open
  for (;;) {
    at = text.indexOf('"', at + 1)
    if (at === -1) return text.length
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1
    if (backslashes % 2 === 0) return at
  }
}

/** Whether a value holds arrays and objects nested more than `limit` deep (walked without recursion). */
export function valueNestsDeeper(value: unknown, limit = MAX_JSON_NESTING): boolean {
  const pending: { value: object; depth: number }[] = []
  if (value !== null && typeof value === 'object') pending.push({ value, depth: 1 })
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > limit) return true
    for (const child of Object.values(next.value) as unknown[]) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: next.depth + 1 })
    }
  }
  return false
}
