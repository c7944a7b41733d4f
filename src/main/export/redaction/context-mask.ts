// What a review shows of the text around a finding (its excerpt) and of a tool input's field
// names (in a place's label). A rule finds only the secrets it knows: the one beside it (a
// second key on the line in a format no rule knows, a password under a key no rule reads)
// must not print in clear in the CLI's review or the window's. So context shows structure,
// not values: spacing and punctuation as they are, words that read as names (`export`,
// `DB_HOST`, `Authorization`, `accessKeyId`, `the`) as they are, and every other run of
// characters as `•••`, which says something is there and nothing of what.

/** What separates runs of characters: whitespace, quotes, assignment, brackets, list punctuation. */
const SEPARATOR = /[\s"'`=:;,()[\]{}<>\\]/
const SEPARATORS = /([\s"'`=:;,()[\]{}<>\\])/

/** Shown in place of a run of characters that does not read as a name. */
export const HIDDEN = '•••'

/** Runs longer than this are never names: a window edge may stop this far into one. */
export const MAX_NAME_RUN = 64

/**
 * One word of a name: lower case, Capitalised, short UPPER CASE (`DB`, `HTTP`; a long one could
 * be a key of capitals), camelCase or PascalCase; letters only, at most 24.
 */
const NAME_WORD = /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]{1,10}|[a-z]+(?:[A-Z][a-z]+)+|(?:[A-Z][a-z]+){2,})$/

/**
 * Whether a run of characters (no separator in it) reads as a name or a word rather than a
 * value: printable ASCII, no digit, and words of NAME_WORD joined by `-_./@~` (`DB_HOST`,
 * `x-api-key`, `spring.datasource`, `/usr/bin`), or at most three symbols (`--`, `&&`, `$`).
 * Any run with a digit, a letter outside ASCII, a control character or mixed case outside
 * those patterns is a value, and so is anything longer than MAX_NAME_RUN.
 */
export function readsAsName(run: string): boolean {
  if (run.length === 0 || run.length > MAX_NAME_RUN || !/^[\x21-\x7e]+$/.test(run) || /\d/.test(run)) return false
  if (!/[A-Za-z]/.test(run)) return run.length <= 3
  if (/[^A-Za-z\-_./@~]/.test(run)) return false
  return run
    .split(/[-_./@~]+/)
    .filter(Boolean)
    .every((word) => word.length <= 24 && NAME_WORD.test(word))
}

/** `text` with every run that does not read as a name replaced by HIDDEN; newlines as ⏎, other spacing as a space. */
export function maskContext(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split(SEPARATORS)
    .map((part) => {
      if (part === '') return ''
      if (part === '\n' || part === '\r') return '⏎'
      if (/^\s$/.test(part)) return ' '
      if (SEPARATOR.test(part) && part.length === 1) return part
      return readsAsName(part) ? part : HIDDEN
    })
    .join('')
}

/** `at` moved back to the start of the run it is inside, at most MAX_NAME_RUN + 1 characters. */
export function runStart(text: string, at: number): number {
  let start = at
  while (start > 0 && at - start <= MAX_NAME_RUN && !SEPARATOR.test(text.charAt(start - 1))) start--
  return start
}

/** `at` moved on to the end of the run it is inside, at most MAX_NAME_RUN + 1 characters. */
export function runEnd(text: string, at: number): number {
  let end = at
  while (end < text.length && end - at <= MAX_NAME_RUN && !SEPARATOR.test(text.charAt(end))) end++
  return end
}
