// Run by blob-writers.test.ts in a child process: start the writer threads (and with `write`,
// write one blob), then let the process end on its own. It must: idle writer threads never
// keep it alive.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { blobWriters } from '../blob-writers'

blobWriters.warm()
if (process.argv[2] === 'write') {
  const content = Buffer.from('written on a writer thread\n')
  const target = join(mkdtempSync(join(tmpdir(), 'retrace-idle-pool-')), 'out.txt')
  await blobWriters.write({ target: Buffer.from(target), mode: 0o644, hash: createHash('sha256').update(content).digest('hex'), encoding: 'raw', data: content, fsync: false })
  process.stdout.write(readFileSync(target, 'utf8'))
} else {
  process.stdout.write('started\n')
}
