// Child process for measure 5. Mode "idle" only starts (Node + vite-node) and reports its RSS:
// the reference. Mode "serve" opens the store through the real runtime, serves the same calls
// as the latency measures, then reports. Results go to stdout as one JSON line.

export interface ChildJob {
  mode: 'idle' | 'serve'
  dataDir: string
  workspaceId: number
  bigSessionId: string
  sessionLength: number
  listQueries: string[]
  searchQueries: string[]
}

export interface ChildReport {
  rssBytes: number
  peakRssBytes: number
  heapUsedBytes: number
}

async function serve(job: ChildJob): Promise<void> {
  // Imported only here, so the idle child loads none of Retrace.
  const { createRuntime } = await import('../../src/main/runtime/runtime')
  const { createDispatcher } = await import('../../src/main/rpc/dispatcher')
  const runtime = createRuntime({ dataDir: job.dataDir, host: { binding: 'web' }, version: 'bench' })
  const dispatch = createDispatcher<null>({ handlers: runtime.handlers, authorize: () => null })
  const calls: [string, unknown][] = [
    ['sessions.list', { workspaceId: job.workspaceId, limit: 100 }],
    ...job.listQueries.map((query): [string, unknown] => ['sessions.list', { workspaceId: job.workspaceId, limit: 100, query }]),
    ['transcript.page', { sessionId: job.bigSessionId, limit: 100 }],
    ['transcript.page', { sessionId: job.bigSessionId, limit: 100, direction: 'after', cursor: String(Math.floor(job.sessionLength / 2) - 1) }],
    ['transcript.page', { sessionId: job.bigSessionId, limit: 100, direction: 'before' }],
    ...job.searchQueries.map((query): [string, unknown] => ['search.messages', { query, limit: 20 }])
  ]
  // Twice, so the report is of a process that has settled into serving, not of its first call.
  for (let round = 0; round < 2; round++) {
    for (const [method, input] of calls) {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`)
    }
  }
  report()
  runtime.close()
}

function report(): void {
  const memory = process.memoryUsage()
  const out: ChildReport = { rssBytes: memory.rss, peakRssBytes: process.resourceUsage().maxRSS * 1024, heapUsedBytes: memory.heapUsed }
  process.stdout.write(`${JSON.stringify(out)}\n`)
}

const raw = process.env.RETRACE_BENCH_CHILD
if (raw) {
  const job = JSON.parse(raw) as ChildJob
  if (job.mode === 'serve') await serve(job)
  else report()
}
