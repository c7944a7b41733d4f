// Run by crash.test.ts in a child process: rewind a session's files and SIGKILL itself at the
// Nth file-system call, before that call happens: the hardest possible stop, at every point.
// A fourth argument batches the rewind from that many files (see apply.ts BATCH_FROM_WRITES).
import { FileJournal } from '../../file-journal'
import { openStore } from '../../../store/store'
import { RewindService } from '../rewind-service'
import { realFsOps, type FsOps } from '../../workspace-fs'

const [dataDir = '', sessionId = '', killAt = '0', batchFrom] = process.argv.slice(2)
const store = openStore(dataDir)
const journal = new FileJournal(store)
let calls = 0
const ops = {} as FsOps
for (const name of Object.keys(realFsOps) as (keyof FsOps)[]) {
  const real = realFsOps[name] as (...args: unknown[]) => Promise<void>
  ;(ops as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
    calls += 1
    if (calls === Number(killAt)) process.kill(process.pid, 'SIGKILL')
    return real(...args)
  }
}
await new RewindService(store, journal).applyTurn(sessionId, 1, { ops, ...(batchFrom ? { batchFrom: Number(batchFrom) } : {}) })
process.stdout.write(`completed after ${calls} calls\n`)
