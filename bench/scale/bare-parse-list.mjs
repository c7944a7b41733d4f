// The scale bench's reference for the import, in plain Node: bench/import/bare-parse.mjs's
// streaming read and JSON.parse of every line, over the files named in a list file (50,000 paths
// are more than a command line holds). Prints {ms, lines} as one JSON line.
import { createReadStream, readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

const files = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)
const started = performance.now()
let lines = 0
for (const file of files) {
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
