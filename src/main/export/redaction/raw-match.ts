/**
 * A secret one rule found, before it is tied to a place: offsets are into the text that was
 * scanned (UTF-16, `end` exclusive), and cover the secret itself, not the key naming it.
 */
export interface RawMatch {
  ruleId: string
  ruleName: string
  start: number
  end: number
}
