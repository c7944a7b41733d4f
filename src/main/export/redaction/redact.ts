import type { SecretFinding } from './types'

interface Range {
  start: number
  end: number
  name: string
}

/**
 * The text with each finding's range replaced by `[REDACTED: <rule name>]`. Pass the findings
 * of this text that are to be hidden (the caller leaves out those the user chose to keep).
 * Overlapping ranges become one marker, named after the finding that starts first (the
 * longest, on a tie); ranges past the text's end are cut to it.
 */
export function redactText(text: string, findings: readonly SecretFinding[]): string {
  return replaceRanges(text, findings, (range) => `[REDACTED: ${range.name}]`)
}

/**
 * The same for a file's bytes read as text (one character a byte, or a UTF-16 unit): each
 * range becomes a marker of exactly its own length — `[REDACTED: <rule name>]` padded with `*`,
 * else `[REDACTED]` if that fits, else only `*` — so the file keeps its size and every byte
 * outside the secrets stays at its offset (a binary format's own offsets still hold).
 */
export function redactInPlace(text: string, findings: readonly SecretFinding[]): string {
  return replaceRanges(text, findings, (range) => {
    const length = range.end - range.start
    const marker = [`[REDACTED: ${range.name}]`, '[REDACTED]'].find((candidate) => candidate.length <= length) ?? ''
    return marker.padEnd(length, '*')
  })
}

function replaceRanges(text: string, findings: readonly SecretFinding[], marker: (range: Range) => string): string {
  const ranges = findings
    .map((finding) => ({ start: clamp(finding.start, text.length), end: clamp(finding.end, text.length), name: finding.ruleName }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ''
  let at = 0
  let open: Range | null = null
  const close = (): void => {
    if (!open) return
    out += text.slice(at, open.start) + marker(open)
    at = open.end
    open = null
  }
  for (const range of ranges) {
    if (open && range.start < open.end) open.end = Math.max(open.end, range.end)
    else {
      close()
      open = { ...range }
    }
  }
  close()
  return out + text.slice(at)
}

function clamp(offset: number, length: number): number {
  return Math.max(0, Math.min(length, offset))
}
