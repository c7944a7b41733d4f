import { setImmediate as nextTurn } from 'node:timers/promises'
import { makeBatches, textAt, type Batch, DEFAULT_BATCH_CHARS } from './batches'
import { toFinding } from './finding'
import { mergeOverlaps } from './merge-overlaps'
import type { RawMatch } from './raw-match'
import { findRetraceMatches } from './retrace-rules'
import { createSecretlintScanner, type SecretlintScanner } from './secretlint-engine'
import type { ScanInput, ScanOptions, SecretFinding } from './types'

let sharedScanner: Promise<SecretlintScanner> | undefined

/** One secretlint setup per process; a failed load is retried by the next scan. */
function secretlintScanner(): Promise<SecretlintScanner> {
  sharedScanner ??= createSecretlintScanner().catch((error: unknown) => {
    sharedScanner = undefined
    throw error
  })
  return sharedScanner
}

/**
 * Every secret in the texts, by secretlint's recommended preset and Retrace's own rules,
 * overlapping findings of one text merged. Findings come in the order of the texts, then by
 * position. Between batches the scan checks the signal, reports progress and lets the event
 * loop run, so a long scan neither blocks the process nor outlives a cancel.
 */
export function scanForSecrets(texts: ScanInput[], options: ScanOptions = {}): Promise<SecretFinding[]> {
  return scanInBatches(texts, options)
}

export interface ScanTuning {
  /** Characters per secretlint call (0: one text per call). */
  batchChars?: number
  /** Replaces the shared secretlint scanner (tests of the batching itself). */
  secretlint?: SecretlintScanner
}

/** `scanForSecrets` with its machinery exposed: tests compare batched with one text per call. */
export async function scanInBatches(texts: readonly ScanInput[], options: ScanOptions, tuning: ScanTuning = {}): Promise<SecretFinding[]> {
  const { signal, onProgress } = options
  const batchChars = tuning.batchChars ?? DEFAULT_BATCH_CHARS
  signal?.throwIfAborted()
  const secretlint = tuning.secretlint ?? (await secretlintScanner())
  const matches: RawMatch[][] = texts.map(() => [])
  let done = 0
  for (const batch of makeBatches(texts.map((input) => input.text), batchChars)) {
    signal?.throwIfAborted()
    await lintBatch(batch, secretlint, texts, matches)
    for (const index of batch.indexes) matches[index]?.push(...findRetraceMatches(texts[index]?.text ?? ''))
    done += batch.indexes.length
    onProgress?.(done, texts.length)
    await nextTurn()
  }
  return texts.flatMap(({ place, text }, index) => {
    const merged = mergeOverlaps(matches[index] ?? [])
    return merged.map((match) => toFinding(place, text, match, merged))
  })
}

/** Secretlint over one batch, its matches moved to their texts' offsets in `matches`. */
async function lintBatch(batch: Batch, secretlint: SecretlintScanner, texts: readonly ScanInput[], matches: RawMatch[][]): Promise<void> {
  const lengthOf = (position: number): number => texts[batch.indexes[position] ?? -1]?.text.length ?? 0
  const placed: Array<{ position: number; match: RawMatch }> = []
  const scanAlone = new Set<number>()
  for (const match of await secretlint(batch.content)) {
    const first = textAt(batch, match.start)
    const start = batch.starts[first] ?? 0
    if (match.end <= start + lengthOf(first) && match.start >= start) {
      placed.push({ position: first, match: { ...match, start: match.start - start, end: match.end - start } })
      continue
    }
    // Runs into the separator or the next text: not a secret of one text as it stands.
    const last = textAt(batch, Math.max(match.start, match.end - 1))
    for (let position = first; position <= Math.max(last, first + 1) && position < batch.indexes.length; position++) scanAlone.add(position)
  }
  for (const { position, match } of placed) if (!scanAlone.has(position)) matches[batch.indexes[position] ?? -1]?.push(match)
  for (const position of scanAlone) {
    const index = batch.indexes[position] ?? -1
    matches[index]?.push(...(await secretlint(texts[index]?.text ?? '')))
  }
}
