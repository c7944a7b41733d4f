// Preloaded (`node --require`) into a measured process: at exit, its peak resident set size on
// stderr, on a line of its own the bench picks out.
'use strict'
process.on('exit', () => {
  process.stderr.write(`\nbench-peak-rss-bytes ${process.resourceUsage().maxRSS * 1024}\n`)
})
