// The re-check's reference, in plain Node: what a look for new lines cannot do without, a
// `readdir` of every folder holding history files and a `statSync` of every file (a folder's
// mtime does not change when an agent appends to a file in it). Over the files named in a list
// file, as bare-parse-list.mjs. Prints {readdirMs, statMs, files, folders} as one JSON line.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { performance } from 'node:perf_hooks'

const files = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)
const folders = [...new Set(files.map((file) => dirname(file)))]
let started = performance.now()
for (const folder of folders) readdirSync(folder, { withFileTypes: true })
const readdirMs = performance.now() - started
started = performance.now()
for (const file of files) statSync(file)
console.log(JSON.stringify({ readdirMs, statMs: performance.now() - started, files: files.length, folders: folders.length }))
