/**
 * Many short texts joined into one secretlint source. A lintSource call costs ~0.1 ms before it
 * reads a character (it sets up every preset rule), which is most of the time for a 100-byte
 * message; one call over ~128 kB of joined texts costs about the same as the rules' regexes
 * over them. Offsets map back to the texts; a match crossing a separator is not a secret of
 * either text and sends the texts it touches to be scanned alone.
 */
export interface Batch {
  /** Indexes into the scanned texts, in order. */
  indexes: number[]
  /** Where each text starts in `content`. */
  starts: number[]
  content: string
}

/**
 * Between two texts: a newline each side keeps line-based patterns apart, and NUL is neither
 * space nor word nor base64, so no `key\s*=\s*value` or token pattern runs through it.
 */
export const SEPARATOR = '\n\u0000\n'

/** Characters per batch; a longer text is a batch of its own. */
export const DEFAULT_BATCH_CHARS = 128 * 1024

export function makeBatches(texts: readonly string[], batchChars = DEFAULT_BATCH_CHARS): Batch[] {
  const batches: Batch[] = []
  let current: { indexes: number[]; parts: string[]; starts: number[]; length: number } | null = null
  const close = (): void => {
    if (current) batches.push({ indexes: current.indexes, starts: current.starts, content: current.parts.join(SEPARATOR) })
    current = null
  }
  texts.forEach((text, index) => {
    if (current && current.length + SEPARATOR.length + text.length > batchChars) close()
    current ??= { indexes: [], parts: [], starts: [], length: -SEPARATOR.length }
    current.length += SEPARATOR.length
    current.indexes.push(index)
    current.starts.push(current.length)
    current.parts.push(text)
    current.length += text.length
  })
  close()
  return batches
}

/** Which of the batch's texts holds `offset` (position in `indexes`), by binary search. */
export function textAt(batch: Batch, offset: number): number {
  let low = 0
  let high = batch.starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if ((batch.starts[mid] ?? 0) <= offset) low = mid
    else high = mid - 1
  }
  return low
}
