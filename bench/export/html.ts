import { cpus } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { documentTexts } from '../../src/main/export/document-texts'
import { buildExportDocument } from '../../src/main/export/export-document'
import { ExportService } from '../../src/main/export/export-service'
import { renderHtml } from '../../src/main/export/html'
import { envInt } from '../lib/env'
import { makeTempDir, removeDir } from '../lib/files'
import { formatBytes, formatCount, formatTiming, repeatAsync, repeatSync, type Timing } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { generateExportSession } from './session'

// `npm run bench:export:html`: export a 10,000-message session (with its per-turn diffs) to the
// self-contained HTML page, and compare with JSON.stringify of the same export document — the
// least any export must do — measured in the same run. Targets (issue 6): the export in ≤ 2 s,
// and a page no larger than 1.5× the raw text it carries.

const MESSAGES = envInt('RETRACE_BENCH_EXPORT_MESSAGES', 10_000)
const RUNS = envInt('RETRACE_BENCH_N', 7)
const TARGET_MS = 2_000
const TARGET_RATIO = 1.5
const META = { exportedAt: Date.UTC(2026, 0, 1), appVersion: 'bench', redaction: { applied: false, hidden: 0 } }

const log = (line: string): void => void process.stderr.write(`${line}\n`)
const seconds = (timing: Timing): string => formatTiming(timing)

async function main(): Promise<void> {
  const dir = makeTempDir()
  log(`Export bench: one ${formatCount(MESSAGES)}-message session; Node ${process.version}, ${cpus().length} CPUs; data in ${dir}`)
  try {
    const generated = performance.now()
    const { runtime, sessionId } = generateExportSession(join(dir, 'data'), MESSAGES, 20260106)
    log(`Generated in ${((performance.now() - generated) / 1000).toFixed(1)} s. Measuring (${RUNS} runs each)…`)
    const options = { n: RUNS, warmup: 1 }

    const doc = await buildExportDocument(runtime, sessionId, { withFiles: false })
    const rawBytes = documentTexts(doc).reduce((sum, { text }) => sum + Buffer.byteLength(text, 'utf8'), 0)
    const html = renderHtml(doc, META)
    const json = JSON.stringify(doc)
    const htmlBytes = Buffer.byteLength(html, 'utf8')
    const jsonBytes = Buffer.byteLength(json, 'utf8')

    const build = await repeatAsync(() => buildExportDocument(runtime, sessionId, { withFiles: false }), options)
    const render = repeatSync(() => renderHtml(doc, META), options)
    const whole = await repeatAsync(async () => renderHtml(await buildExportDocument(runtime, sessionId, { withFiles: false }), META), options)
    const stringify = repeatSync(() => JSON.stringify(doc), options)
    const wholeJson = await repeatAsync(async () => JSON.stringify(await buildExportDocument(runtime, sessionId, { withFiles: false })), options)
    const service = new ExportService(runtime)
    const reviewed = repeatAsync(async () => {
      const review = await service.review({ sessionId, format: 'html', withFiles: false })
      await service.render({ sessionId, format: 'html', withFiles: false, redact: true, keep: [], token: review.token })
    }, { n: Math.min(RUNS, 3), warmup: 0 })
    const redacted = await reviewed
    runtime.close()

    const ratio = htmlBytes / rawBytes
    const rows: ResultRow[] = [
      { measure: 'export to HTML: document from the store + page', retrace: seconds(whole), reference: `document + JSON.stringify: ${seconds(wholeJson)}`, target: '≤ 2 s', met: whole.median <= TARGET_MS, n: String(whole.n) },
      { measure: 'page size vs the raw text it carries', retrace: `${ratio.toFixed(2)}× (${formatBytes(htmlBytes)} for ${formatBytes(rawBytes)})`, reference: `JSON.stringify: ${(jsonBytes / rawBytes).toFixed(2)}× (${formatBytes(jsonBytes)})`, target: '≤ 1.5×', met: ratio <= TARGET_RATIO, n: '1' },
      { measure: '  of which: build the export document', retrace: seconds(build), reference: '—', target: '—', met: null, n: String(build.n) },
      { measure: '  of which: render the page', retrace: seconds(render), reference: `JSON.stringify: ${seconds(stringify)}`, target: '—', met: null, n: String(render.n) },
      { measure: 'with the secret scan: export.review + export.render', retrace: seconds(redacted), reference: '—', target: 'n/a (scan: redaction engine)', met: null, n: String(redacted.n) }
    ]
    log('')
    console.log(`Session: ${formatCount(doc.messages.length)} messages, ${formatCount(doc.session.turnCount)} turns, ${formatCount(doc.fileChanges.length)} file changes; ${formatCount(documentTexts(doc).length)} text places.\n`)
    console.log(renderTable(rows, 'reference (same document, same run)'))
  } finally {
    removeDir(dir)
  }
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
