// The import benchmark's reference, in plain Node (no transform, no Retrace code): a streaming
// read of every file and JSON.parse of each line. Prints {ms, lines} as one JSON line; the peak
// RSS is reported by report-rss.cjs, preloaded like for the import.
import { createReadStream } from 'node:fs'
import { performance } from 'node:perf_hooks'

const started = performance.now()
let lines = 0
for (const file of process.argv.slice(2)) {
  let rest = ''
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1024 * 1024 })) {
    const text = rest + chunk
    let start = 0
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      if (end > start) JSON.parse(text.slice(start, end))
      lines += 1
      start = end + 1
    }
    rest = text.slice(start)
  }
  if (rest.trim()) JSON.parse(rest)
}
console.log(JSON.stringify({ ms: performance.now() - started, lines }))
