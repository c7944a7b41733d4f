// Run by concurrent-writer.test.ts in a child process (plain Node): an agent still writing while
// a rewind runs. It appends numbered records to files of the workspace, in bursts (one record
// to every file) up to a few milliseconds apart: to half of them through a descriptor it keeps
// open (a log, a long-running tool), to the others by opening the file for each record (a
// shell's `>>`, an append tool). It writes `ready` beside the stop file once its descriptors are
// opened, and it waits for the rewind to begin replacing files (the file TRIGGER changes, or two
// seconds pass), so that some of its files are checked and replaced before it writes to them and
// some after; when the stop file appears it stops and prints every record it wrote, as JSON.
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'

const [root = '', stopFile = '', list = '[]', trigger = ''] = process.argv.slice(2)
const files = JSON.parse(list)
const kept = files.filter((_, i) => i % 2 === 0)
const descriptors = new Map(kept.map((path) => [path, openSync(join(root, path), 'a')]))
const pause = new Int32Array(new SharedArrayBuffer(4))
const written = []

const untouched = readFileSync(join(root, trigger))
/** The trigger as the rewind left it: missing counts as changed (for microseconds between its two renames, it is). */
const unchanged = () => {
  try {
    return readFileSync(join(root, trigger)).equals(untouched)
  } catch {
    return false
  }
}
writeFileSync(join(dirname(stopFile), 'ready'), '')
const since = Date.now()
while (Date.now() - since < 2000 && unchanged() && !existsSync(stopFile)) Atomics.wait(pause, 0, 0, 0.2)

for (let burst = 0; !existsSync(stopFile); burst++) {
  for (const path of files) {
    const record = `${path} #${burst}\n`
    const fd = descriptors.get(path)
    if (fd === undefined) appendFileSync(join(root, path), record)
    else writeSync(fd, record)
    written.push(record.trimEnd())
  }
  Atomics.wait(pause, 0, 0, Math.random() * 4)
}
for (const fd of descriptors.values()) closeSync(fd)
process.stdout.write(JSON.stringify(written))
