/**
 * The import's parse thread: reads history files and parses their lines into records while the
 * main thread writes the chunks before them (parse-thread.ts). Jobs are read one after another,
 * in the order they came; at most the credit the importer gave (bytes of lines) is sent ahead of
 * what it took.
 *
 * Built, this is an entry of its own (electron.vite.config.ts). From source (vitest, the
 * benchmarks), it runs with Node's type transform and a resolver for extensionless imports
 * (ts-source-hooks.mjs).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { adaptersFor } from '../registry'
import { parseFileChunks, type ParseJob } from './parse-chunks'
import type { FromParseThread, ToParseThread } from './protocol'

if (!parentPort) throw new Error('import-parse-worker.mts must run in a worker thread')
const port = parentPort

/** A fault tests start a thread with (parse-thread.ts): it exits as it starts reading, as a thread out of memory would stop. */
const exitOnJob = (workerData as { exitOnJob?: boolean } | null)?.exitOnJob === true

const jobs: { id: number; job: ParseJob; lineCostMb: number }[] = []
let credit = 0
let wake: (() => void) | null = null
let running = false

port.on('message', (message: ToParseThread) => {
  if (message.type === 'job') jobs.push({ id: message.id, job: message.job, lineCostMb: message.lineCostMb })
  else credit += message.bytes
  wake?.()
  if (!running) void run()
})

function createParser(source: ParseJob['source'], state: unknown, path: string) {
  const [adapter] = adaptersFor(source)
  if (!adapter || adapter.kind === 'snapshot') throw new Error(`No line parser for ${source}.`)
  return adapter.createParser(state, { path })
}

async function run(): Promise<void> {
  running = true
  try {
    for (let next = jobs.shift(); next; next = jobs.shift()) {
      try {
        if (exitOnJob) process.exit(70)
        for await (const chunk of parseFileChunks(next.job, createParser, next.lineCostMb)) {
          while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve))
          credit -= chunk.end - chunk.start
          port.postMessage({ type: 'chunk', id: next.id, chunk } satisfies FromParseThread)
        }
      } catch (error) {
        port.postMessage({ type: 'failed', id: next.id, message: error instanceof Error ? error.message : String(error) } satisfies FromParseThread)
      }
    }
  } finally {
    running = false
  }
}
