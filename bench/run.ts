import { cpus } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createDispatcher } from '../src/main/rpc/dispatcher'
import { createRuntime } from '../src/main/runtime/runtime'
import { DATABASE_FILE } from '../src/main/store/store'
import { plan, settings } from './config'
import { buildStore } from './generate/build'
import { ContentFactory } from './generate/content'
import { RARE_WORD } from './generate/vocabulary'
import { databaseBytes, makeTempDir, removeDir } from './lib/files'
import { formatBytes, formatCount } from './lib/stats'
import { renderTable, type ResultRow } from './lib/table'
import type { MeasureContext } from './measure/context'
import { measureList } from './measure/list'
import { measureMemory } from './measure/memory'
import { measureSearch, type SearchTerm } from './measure/search'
import { measureTranscript } from './measure/transcript'
import { writeRows } from './measure/write'
import { databaseOf } from '../src/main/store/raw-database'

// `npm run bench`: generate the store, run the five measures, print one markdown table.
// Every Retrace number has its reference measured in the same run, on the same machine.

const SEARCH_TERMS: SearchTerm[] = [
  { label: 'rare', query: RARE_WORD, likeScan: true },
  { label: 'common', query: 'file' },
  { label: 'two-word', query: 'cache invalidation' },
  // What the search box sends after the first keystroke (it is debounced, not length-gated).
  { label: 'one letter, as typed', query: 'f' }
]
const LIST_FILTERS = [
  { label: 'rare word', query: RARE_WORD },
  { label: 'common word', query: 'file' }
]

const log = (line: string): void => void process.stderr.write(`${line}\n`)

async function main(): Promise<void> {
  const started = performance.now()
  const dir = makeTempDir()
  log(`Retrace bench: ${formatCount(plan.sessions)} sessions, ${formatCount(plan.messages)} messages; Node ${process.version}, ${cpus().length} CPUs; data in ${dir}`)
  try {
    log(`Store: the plan through the recorder; the first ${formatCount(settings.referenceMessages)} messages also by bare INSERTs into a reference DB…`)
    const storeDir = join(dir, 'store')
    const build = buildStore(storeDir, {
      plan,
      content: new ContentFactory(plan.seed),
      batchSize: settings.batchSize,
      sampleMessages: settings.referenceMessages,
      referencePath: join(dir, 'reference', DATABASE_FILE)
    })
    const dbBytes = databaseBytes(join(storeDir, DATABASE_FILE))

    log('Latency measures…')
    const runtime = createRuntime({ dataDir: storeDir, host: { binding: 'web' }, version: 'bench' })
    const { avgBytes } = databaseOf(runtime.store).prepare('SELECT avg(length(content) + coalesce(length(tool_input), 0)) AS avgBytes FROM messages').get() as { avgBytes: number }
    const bigSessionId = (databaseOf(runtime.store).prepare('SELECT uid FROM sessions ORDER BY message_count DESC LIMIT 1').get() as { uid: string }).uid
    const ctx: MeasureContext = {
      dispatch: createDispatcher<null>({ handlers: runtime.handlers, authorize: () => null }),
      db: databaseOf(runtime.store),
      workspaceId: build.workspaceId,
      bigSessionId,
      repeat: { n: settings.repetitions, warmup: settings.warmup }
    }
    const rows: ResultRow[] = [...writeRows(build, settings.batchSize)]
    rows.push(...(await measureList(ctx, LIST_FILTERS)))
    rows.push(...(await measureTranscript(ctx, plan.bigSize)))
    rows.push(...(await measureSearch(ctx, SEARCH_TERMS)))
    runtime.close()

    log('Memory (child processes)…')
    rows.push(
      measureMemory({
        dataDir: storeDir,
        workspaceId: build.workspaceId,
        bigSessionId,
        sessionLength: plan.bigSize,
        listQueries: LIST_FILTERS.map((f) => f.query),
        searchQueries: SEARCH_TERMS.map((t) => t.query)
      })
    )

    console.log(`\n${renderTable(rows)}\n`)
    console.log(`Store: ${formatCount(plan.sessions)} sessions, ${formatCount(build.total.messages)} messages (one of ${formatCount(plan.bigSize)}), ` +
      `${formatBytes(dbBytes)} on disk (retrace.db after a WAL checkpoint); text + tool input average ${formatCount(avgBytes)} bytes a message.`)
    console.log(`Generation: ${(build.wallMs / 1000).toFixed(0)} s wall: ${(build.total.writeMs / 1000).toFixed(0)} s in recorder transactions, ` +
      `${(build.sample.reference.writeMs / 1000).toFixed(0)} s in reference transactions, the rest generating text.`)
    console.log(`Latency cells: median (p95) of N measured runs after ${settings.warmup} warm-up runs; slow cases stop after ~10 s of runs (N shows how many ran; "a/b" = Retrace/reference).`)
    console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; whole run ${((performance.now() - started) / 1000).toFixed(0)} s.`)
  } finally {
    if (settings.keep) log(`Kept the data folder: ${dir}`)
    else removeDir(dir)
  }
}

await main()
