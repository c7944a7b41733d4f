import { cpus } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createRng } from '../lib/prng'
import { makeTempDir, removeDir } from '../lib/files'
import { formatBytes, formatCount } from '../lib/stats'
import { renderTable, type ResultRow } from '../lib/table'
import { bigFileRow, measureBigFile, type BigFileResult } from './big-file'
import { journalConfig as config } from './config'
import { TextFactory } from './content'
import { coldCaptureLine, inlineCompressionLine, measureWorkerStartup, workerStartupLine } from './diagnosis'
import { checkFreeSpace } from './disk'
import { measureFirstCapture } from './first-capture'
import { machineLine, protocolLines, workspaceLine } from './notes'
import { EditRounds, type RoundTimes } from './rounds'
import { durableRewindRow, settledRewindRow, storageRows, timingRow } from './rows'
import { gitVersion } from './shadow-git'
import { hookPairRows, measureHookPair, type HookPairResult } from './hook-pair'
import { estimateInlineCompression, measureStorage, type InlineEstimate, type StorageSizes } from './storage'
import { copyWorkspace, generateWorkspace, warmPageCache } from './workspace'

// `npm run bench:journal` (also run by `npm run bench`): the file journal against a shadow git
// repository on two copies of the same generated workspace, in the same run, then a large file in a child
// process. Prints one markdown table.

const log = (line: string): void => void process.stderr.write(`${line}\n`)

async function main(): Promise<void> {
  const started = performance.now()
  const dir = makeTempDir()
  const git = gitVersion()
  log(`Retrace journal bench: ${formatCount(config.files)} files, ${formatBytes(config.workspaceBytes)}; git ${git}; Node ${process.version}, ${cpus().length} CPUs; data in ${dir}`)
  try {
    checkFreeSpace(dir, config.workspaceBytes, config.bigFileBytes)
    log('Generating the workspace…')
    const generation = performance.now()
    const workspace = generateWorkspace(join(dir, 'workspace'), { seed: config.seed, files: config.files, bytes: config.workspaceBytes })
    const generationMs = performance.now() - generation
    const copies = { retrace: workspace, git: copyWorkspace(workspace, join(dir, 'workspace-git')) }
    warmPageCache(copies.retrace)
    warmPageCache(copies.git)

    log('First capture (fresh store and fresh shadow repository each round)…')
    const first = await measureFirstCapture(copies, dir, config.firstCaptureRounds, log)
    const text = new TextFactory(config.seed, createRng(config.seed + 1))
    const rounds = new EditRounds(copies, first.retrace, first.git, text, { seed: config.seed, verifySample: config.verifySample, log }, { turn: first.turn, baseCommit: first.baseCommit })

    log(`Edit rounds of ${config.smallEdit} files…`)
    // Assigned in the callback: typed by assertion so TypeScript does not narrow them to null.
    let sizes = null as StorageSizes | null
    let inline = null as InlineEstimate | null
    const small = await rounds.run(config.smallEdit, config.smallEditRounds, () => {
      log('  store sizes (and `git gc` on a copy of the shadow repository)…')
      sizes = measureStorage(first.retrace, first.git, dir)
      inline = estimateInlineCompression(first.retrace)
    })
    let cold = null as RoundTimes | null
    if (config.coldCaptureRounds > 0) {
      log(`Edit rounds of ${config.smallEdit} files, Retrace's capture on a newly started worker (diagnosis)…`)
      cold = await rounds.run(config.smallEdit, config.coldCaptureRounds, undefined, { coldWorker: true })
    }
    log(`Edit rounds of ${config.largeEdit} files…`)
    const large = await rounds.run(config.largeEdit, config.largeEditRounds)
    first.retrace.close()
    const startup = await measureWorkerStartup(dir)

    let hooks: HookPairResult | null = null
    if (config.hookRounds > 0) {
      log(`A turn's hooks as Claude Code runs them, ${config.smallEdit} edited files…`)
      hooks = await measureHookPair(copies, first.git, dir, { edits: config.smallEdit, rounds: config.hookRounds, seed: config.seed, text, log })
    }

    let big: BigFileResult | null = null
    if (config.bigFileBytes > 0) {
      log(`Large file: ${formatBytes(config.bigFileBytes)} captured and restored in a child process…`)
      big = measureBigFile(dir, config.bigFileBytes, config.seed)
      log(`  peak RSS by VmHWM: capture ${formatBytes(big.report.capturePeakBytes)}, restore ${formatBytes(big.report.restorePeakBytes)}; by a 20 ms sampler: ${formatBytes(big.report.sampledPeakBytes)}; baseline ${formatBytes(big.report.baselineBytes)}`)
    }

    const edited = (count: number) => `${formatCount(count)} edited files`
    const rows: ResultRow[] = [
      timingRow(`first capture of the workspace (\`TurnCapture.begin\`, empty store)`, first.times, '`init` + `add -A` + `commit`, empty shadow repo', 1.5),
      timingRow(`capture after ${edited(config.smallEdit)} (\`TurnCapture.end\`)`, small.capture, '`add -A` + `commit`', 1),
      timingRow(`capture after ${edited(config.largeEdit)} (\`TurnCapture.end\`)`, large.capture, '`add -A` + `commit`', 1),
      timingRow(`rewind of ${edited(config.smallEdit)} (\`rewinds.applyTurn\`)`, small.rewind, '`checkout <commit> -- .`', 1),
      timingRow(`rewind of ${edited(config.largeEdit)} (\`rewinds.applyTurn\`)`, large.rewind, '`checkout <commit> -- .`', 1),
      durableRewindRow(`rewind of ${edited(config.smallEdit)}, vs git made as durable`, small),
      durableRewindRow(`rewind of ${edited(config.largeEdit)}, vs git made as durable`, large),
      settledRewindRow(`rewind of ${edited(config.smallEdit)}, until the files it replaced are removed too`, small),
      settledRewindRow(`rewind of ${edited(config.largeEdit)}, until the files it replaced are removed too`, large)
    ]
    if (hooks) rows.push(...hookPairRows(hooks, config.smallEdit, config.files))
    if (sizes) rows.push(...storageRows(sizes, config.smallEdit))
    if (big) rows.push(bigFileRow(big))

    console.log(`\n${renderTable(rows, 'git (what)')}\n`)
    console.log(workspaceLine(workspace, generationMs))
    for (const line of protocolLines(git, config.verifySample)) console.log(line)
    console.log(workerStartupLine(startup))
    if (cold) console.log(coldCaptureLine(config.smallEdit, cold.capture))
    if (inline && sizes) console.log(inlineCompressionLine(inline, sizes))
    if (hooks) console.log(`The hooks' first begin on an empty store (the whole workspace read once, then kept) took ${(hooks.firstBegin / 1000).toFixed(2)} s; the first pair a newly started \`retrace serve\` took, ${Math.round(hooks.firstServed)} ms.`)
    console.log(machineLine(started))
  } finally {
    if (config.keep) log(`Kept the data folder: ${dir}`)
    else removeDir(dir)
  }
}

await main()
