import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { lintSource } from '@secretlint/core'
import { secretLintProfiler } from '@secretlint/profiler'
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend'
import { scanForSecrets, type ScanInput, type SecretFinding } from '../../src/main/export/redaction'
import { scanInBatches } from '../../src/main/export/redaction/scan'
import { envInt } from '../lib/env'
import { formatBytes, formatCount, formatMs, summarize, type Timing } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { generateSessionTexts, type BenchSession } from './session-texts'

// `npm run bench:export`: the export's secret scan on the texts of a generated 10,000-message
// session with secrets planted in it, against secretlint alone on the same strings in the same
// run, called the straightforward way: lintSource with the recommended preset, once per string.

const settings = {
  messages: envInt('RETRACE_BENCH_EXPORT_MESSAGES', 10_000),
  /** Sets of planted secrets, each one of every kind the engine finds (19 secrets a set). */
  secretSets: envInt('RETRACE_BENCH_EXPORT_SECRET_SETS', 20),
  repeat: { n: envInt('RETRACE_BENCH_EXPORT_N', 7), warmup: 1 },
  seed: 20250301
}

const SHORT_TEXT = 256

const log = (line: string): void => void process.stderr.write(`${line}\n`)

const presetOnly = { rules: [{ id: recommendedPreset.meta.id, rule: recommendedPreset }] }

/** What secretlint alone reports, one call per string: the reference side. */
async function secretlintAlone(texts: readonly ScanInput[]): Promise<number> {
  let messages = 0
  for (const { text } of texts) {
    const result = await lintSource({ source: { content: text, filePath: 'message.txt', ext: '.txt', contentType: 'text' }, options: { config: presetOnly, noPhysicFilePath: true } })
    messages += result.messages.length
  }
  return messages
}

/** How many planted secrets the findings cover exactly, and how many findings are something else. */
function recall(session: BenchSession, findings: readonly SecretFinding[]): { found: number; extra: number } {
  const textOf = new Map(session.texts.map((input) => [input.place.id, input.text]))
  const wanted = new Set(session.planted.map((p) => p.secret))
  const hits = findings.filter((finding) => wanted.has(textOf.get(finding.placeId)?.slice(finding.start, finding.end) ?? ''))
  return { found: new Set(hits.map((finding) => finding.id)).size, extra: findings.length - hits.length }
}

function throughput(timing: Timing, session: BenchSession): string {
  const seconds = timing.median / 1000
  return `${(session.bytes / 1024 ** 2 / seconds).toFixed(1)} MiB/s, ${formatCount(session.texts.length / seconds)} strings/s`
}

/**
 * Each round runs every side once, in turns, so load from other work on this shared machine
 * falls on all sides alike rather than on whichever ran while it lasted.
 */
async function inTurns<Side extends string>(works: Record<Side, () => Promise<unknown>>, options: { n: number; warmup: number }): Promise<Record<Side, Timing>> {
  const sides = Object.keys(works) as Side[]
  for (let round = 0; round < options.warmup; round++) for (const side of sides) await works[side]()
  const samples = new Map<Side, number[]>(sides.map((side) => [side, []]))
  for (let round = 0; round < options.n; round++) {
    for (const side of sides) {
      const start = performance.now()
      await works[side]()
      samples.get(side)?.push(performance.now() - start)
    }
  }
  return Object.fromEntries(sides.map((side) => [side, summarize(samples.get(side) ?? [])])) as Record<Side, Timing>
}

const cell = (timing: Timing, session: BenchSession): string => `${formatMs(timing.median)} ms (p95 ${formatMs(timing.p95)}): ${throughput(timing, session)}`

async function main(): Promise<void> {
  // Off for both sides, as scanForSecrets turns it off: left on, secretlint keeps a
  // performance mark per rule per call, and this many calls run the heap out of memory.
  secretLintProfiler.setEnabled(false)
  const session = generateSessionTexts(settings)
  const { texts, planted } = session
  log(`Redaction bench: ${formatCount(settings.messages)} messages → ${formatCount(texts.length)} strings, ${formatBytes(session.bytes)}, ${formatCount(planted.length)} planted secrets; Node ${process.version}, ${cpus().length} CPUs`)

  const ours = recall(session, await scanForSecrets(texts))
  const oursUnbatched = recall(session, await scanInBatches(texts, {}, { batchChars: 0 }))
  const referenceFindings = await secretlintAlone(texts)
  log('Timing the whole session: scanForSecrets, secretlint alone, scanForSecrets unbatched, in turns…')
  const { retrace, reference, unbatched } = await inTurns(
    { retrace: () => scanForSecrets(texts), reference: () => secretlintAlone(texts), unbatched: () => scanInBatches(texts, {}, { batchChars: 0 }) },
    settings.repeat
  )
  // Titles, file names, short prompts: where a call's fixed cost is most of the work.
  const shortTexts = texts.filter((input) => input.text.length < SHORT_TEXT)
  const short: BenchSession = { texts: shortTexts, planted: [], bytes: shortTexts.reduce((sum, input) => sum + Buffer.byteLength(input.text), 0) }
  log('Timing the short strings alone…')
  const { shortRetrace, shortReference } = await inTurns({ shortRetrace: () => scanForSecrets(short.texts), shortReference: () => secretlintAlone(short.texts) }, settings.repeat)

  const ratio = reference.median / retrace.median
  const what = `${formatCount(texts.length)} strings, ${formatBytes(session.bytes)}, of a ${formatCount(settings.messages)}-message session`
  const rows: ResultRow[] = [
    {
      measure: `scanForSecrets over ${what}`,
      retrace: `${cell(retrace, session)}; ${ratio.toFixed(1)}× secretlint alone; found ${ours.found} of ${planted.length} planted, ${ours.extra} other`,
      reference: `lintSource, recommended preset, one call per string: ${cell(reference, session)}; ${referenceFindings} findings (no JWT or password rule, AWS key ids off)`,
      target: '≥ secretlint alone',
      met: retrace.median <= reference.median,
      n: `${retrace.n}+${reference.n}`
    },
    {
      measure: `scanForSecrets over its ${formatCount(short.texts.length)} strings under ${SHORT_TEXT} characters (titles, file names, short prompts; ${formatBytes(short.bytes)})`,
      retrace: `${cell(shortRetrace, short)}; ${(shortReference.median / shortRetrace.median).toFixed(1)}× secretlint alone`,
      reference: `lintSource, one call per string: ${cell(shortReference, short)}`,
      target: '≥ secretlint alone',
      met: shortRetrace.median <= shortReference.median,
      n: `${shortRetrace.n}+${shortReference.n}`
    },
    {
      measure: 'the whole session, one secretlint call per string (no batching)',
      retrace: `${cell(unbatched, session)}; found ${oursUnbatched.found} of ${planted.length}, ${oursUnbatched.extra} other`,
      reference: `as above: ${formatMs(reference.median)} ms`,
      target: '(none set)',
      met: null,
      n: `${unbatched.n}`
    }
  ]
  console.log(`\n${renderTable(rows, 'secretlint alone, same run')}\n`)
  console.log(`Cells: median (p95) of N rounds after ${settings.repeat.warmup} warm-up, the sides of a row taking turns in each round; MiB of UTF-8; secretlint's profiler off on both sides. Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}.`)
}

await main()
