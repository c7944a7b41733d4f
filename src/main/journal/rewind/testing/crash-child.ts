// Run by crash.test.ts in a child process: rewind a session's files and SIGKILL itself at the
// Nth file-system call, before that call happens: the hardest possible stop, at every point.
// A fourth argument batches the rewind from that many files (see apply.ts BATCH_FROM_WRITES); a
// fifth, `lane:N`, counts and kills at lane N's calls instead (ThreadedReplace), not the main
// thread's; `flush`, at the Nth flush the lanes ask for (on the flusher thread); `returned`, as
// soon as the rewind has returned, before the files it set aside are removed (set-aside.ts).
import { FileJournal } from '../../file-journal'
import { openStore } from '../../../store/store'
import { RewindService } from '../rewind-service'
import { realFsOps, type FsOps } from '../../workspace-fs'

const [dataDir = '', sessionId = '', killAt = '0', batchFrom, laneArg] = process.argv.slice(2)
const lane = laneArg?.startsWith('lane:') ? Number(laneArg.slice(5)) : null
const atFlush = laneArg === 'flush'
const store = openStore(dataDir)
const journal = new FileJournal(store)
let calls = 0
const ops = {} as FsOps
for (const name of Object.keys(realFsOps) as (keyof FsOps)[]) {
  const real = realFsOps[name] as (...args: unknown[]) => Promise<void>
  ;(ops as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
    calls += 1
    if (lane === null && !atFlush && calls === Number(killAt)) process.kill(process.pid, 'SIGKILL')
    return real(...args)
  }
}
const threadFault = lane !== null ? { threadFault: { lane, call: Number(killAt), code: 'KILL' } } : atFlush ? { flushFault: { flush: Number(killAt), code: 'KILL' } } : {}
await new RewindService(store, journal, undefined, { ops, ...(batchFrom ? { batchFrom: Number(batchFrom) } : {}), ...threadFault }).applyTurn(sessionId, 1)
if (laneArg === 'returned') process.kill(process.pid, 'SIGKILL')
process.stdout.write(`completed after ${calls} calls\n`)
