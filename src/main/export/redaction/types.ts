/** One text that may hold secrets: a message, a tool input (as JSON text), a tool result, a diff, a title, a file name. */
export interface TextPlace {
  /** Unique per text within one scan; findings point back to it. */
  id: string
  /** What the user sees in the review list, e.g. "turn 3 · tool input (Bash)". */
  label: string
  /**
   * A file's bytes read as text (see binary-text.ts): a redaction here must keep every
   * character's offset, so it hides a secret with a marker of the secret's own length.
   */
  binary?: true
}

/** One secret found in one text, as the review list shows it and as `redactText` hides it. */
export interface SecretFinding {
  /** Stable across scans of the same text: a hash of placeId, start, end and ruleId. */
  id: string
  /** e.g. "@secretlint/secretlint-rule-aws" or "retrace/jwt". */
  ruleId: string
  /** Short human name, e.g. "AWS access key id". */
  ruleName: string
  placeId: string
  placeLabel: string
  /** UTF-16 offsets of the secret in its text (`end` exclusive). */
  start: number
  end: number
  /** The secret with most of it hidden, e.g. "AKIA…(13 more)…XYZ": never the whole secret. */
  masked: string
  /**
   * ~40 characters of context either side, newlines shown as ⏎: every secret found in it
   * masked as `masked` is, and of the rest only punctuation and words that read as names, any
   * other run of characters (a secret no rule knows) shown as •••.
   */
  excerpt: string
}

export interface ScanInput {
  place: TextPlace
  text: string
}

export interface ScanOptions {
  /** Checked between batches: an aborted scan rejects with the signal's reason. */
  signal?: AbortSignal
  /** Texts scanned so far, of all texts; called after each batch. */
  onProgress?: (done: number, total: number) => void
}
