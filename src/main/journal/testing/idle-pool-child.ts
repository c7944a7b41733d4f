// Run by blob-writers.test.ts in a child process: start the writer threads (and with `flushed`,
// have the flusher flush a folder's file system), then let the process end on its own. It must:
// idle writer threads never keep it alive.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { blobWriters } from '../blob-writers'
import { fileSystemSyncProgram } from '../file-system-sync'
import { LANES } from '../rewind/threaded-replace'

const program = fileSystemSyncProgram()
blobWriters.warm(LANES, program ?? undefined)
if (process.argv[2] === 'flushed') {
  if (program === null) throw new Error('no file-system flush program on this system')
  await blobWriters.sync(program, Buffer.from(mkdtempSync(join(tmpdir(), 'retrace-idle-pool-'))))
  process.stdout.write('flushed\n')
} else {
  process.stdout.write('started\n')
}
