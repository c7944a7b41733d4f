import { spawn } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RetraceError } from '../../../shared/contract'
import { printResult } from '../../cli/rewind-preview'
import { agentWorkspace, type AgentWorkspace } from '../testing/agent-workspace'
import type { RewindResult } from './rewind-service'

/**
 * An agent still writing while a rewind runs (R33): a real process appending numbered records
 * to some of the files being rewound, through a descriptor it keeps open and by opening the file
 * for each record, until the rewind is over. Whatever the rewind does — completes, or stops and
 * rolls back — every record the writer wrote must end on disk or in a version the rewind saved
 * and listed: none may be lost with a file the rewind replaced, set aside or rolled back.
 */

const WRITER = join(__dirname, 'testing/busy-writer.mjs')
const FILES = 300 // above BATCH_FROM_WRITES: replaced on the writer threads unless told otherwise
const name = (i: number) => `src/f${String(i).padStart(3, '0')}.txt`
/**
 * Which files the writer appends to, and the file whose change starts it. `midway`: it starts
 * as the rewind replaces its first file, writing to files just after that one and to others
 * spread over the rewind's order (some replaced before it writes to them, some after: the rewind
 * stops). `at the end`: it starts once the rewind has replaced its last file, writing to files it
 * replaced first (the rewind completes while the writer still writes to the files it set aside).
 */
const SCENES = {
  midway: { busy: [name(1), name(2), name(3), name(4), ...Array.from({ length: 10 }, (_, k) => name(7 + k * 29))], trigger: name(0) },
  'at the end': { busy: [name(1), name(2), name(3), name(4)], trigger: name(FILES - 1) }
}
type Scene = (typeof SCENES)[keyof typeof SCENES]
const RUNS = 10

function workspaceAfterTurn(): AgentWorkspace {
  const initial: Record<string, string> = {}
  for (let i = 0; i < FILES; i++) initial[name(i)] = `before ${i}\n`
  const ws = agentWorkspace(initial)
  ws.agent.turn()
  for (let i = 0; i < FILES; i++) ws.agent.write(name(i), `after ${i}\n`)
  return ws
}

/** Start the writer; resolves once it is ready, with how to stop it and collect what it wrote. It writes once the rewind changes the first file. */
async function startWriter(ws: AgentWorkspace, scene: Scene): Promise<{ stop(): Promise<string[]> }> {
  const stopFile = join(dirname(ws.root), 'stop')
  const child = spawn(process.execPath, [WRITER, ws.root, stopFile, JSON.stringify(scene.busy), scene.trigger], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit))
  while (!existsSync(join(dirname(ws.root), 'ready'))) await new Promise((tick) => setTimeout(tick, 5))
  return {
    async stop() {
      writeFileSync(stopFile, '')
      expect(await exited).toBe(0)
      return JSON.parse(out) as string[]
    }
  }
}

/** Every `NAME.retrace-kept…` file under the workspace. */
const keptOnDisk = (ws: AgentWorkspace): string[] => readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((path) => /\.retrace-kept/.test(path))

async function oneRun(ws: AgentWorkspace, scene: Scene, batchFrom: number | undefined, run: number): Promise<{ applied: boolean; kept: string[] }> {
  const writer = await startWriter(ws, scene)
  const rewinds = ws.rewindsUnder(batchFrom === undefined ? {} : { batchFrom })
  let outcome: RewindResult | RetraceError
  try {
    outcome = await rewinds.applyTurn(ws.writer.id, 1, { defaultChoice: 'overwrite' })
  } catch (error) {
    if (!(error instanceof RetraceError)) throw error
    outcome = error
  }
  await new Promise((tick) => setTimeout(tick, 20)) // the writer goes on a moment after the rewind returned
  const records = await writer.stop()
  await ws.settled()
  const where = `run ${run}: ${outcome instanceof RetraceError ? outcome.message : 'applied'}`

  // Where the records may be: the files themselves, each kept copy on disk, each version listed.
  const kept = keptOnDisk(ws)
  const listed = outcome instanceof RetraceError ? [] : outcome.keptDuring
  for (const copy of kept) {
    const named = outcome instanceof RetraceError ? outcome.message.includes(copy) : listed.some((item) => item.keptAs.toString() === copy)
    expect(named, `${where}: ${copy} is on disk but not listed`).toBe(true)
  }
  const texts = [...scene.busy, ...kept].map((path) => ws.text(path) ?? '')
  for (const item of listed) if (item.saved) texts.push(ws.journal.blobs.read(item.saved.hash).toString())
  const everywhere = new Set(texts.join('').split('\n'))
  const lost = records.filter((record) => !everywhere.has(record))
  expect(lost, `${where}: ${records.length} records written, these lost`).toEqual([])
  for (const item of listed) expect(item.saved && ws.journal.blobs.has(item.saved.hash), `${where}: ${item.keptAs.toString()} saved`).toBe(true)

  // The rest of the workspace is wholly rewound or wholly as the agent left it.
  const quiet = Array.from({ length: FILES }, (_, i) => name(i)).filter((path) => !scene.busy.includes(path))
  const expected = outcome instanceof RetraceError ? 'after' : 'before'
  for (const path of quiet) expect(ws.text(path), `${where}: ${path}`).toBe(`${expected} ${path.slice(5, 8).replace(/^0+(?=\d)/, '')}\n`)
  expect(readdirSync(ws.root, { recursive: true, encoding: 'utf8' }).filter((path) => path.includes('.retrace-tmp')), where).toEqual([])
  return { applied: !(outcome instanceof RetraceError), kept }
}

describe('an agent writing while a rewind runs (R33)', () => {
  it.skipIf(process.platform !== 'linux')('lists a file another process holds open for writing as kept, in the contract\'s answer and the CLI (R33)', async () => {
    const ws = agentWorkspace({ 'log.txt': 'before\n', 'a.txt': 'a before\n' })
    try {
      ws.agent.turn()
      ws.agent.write('log.txt', 'after\n')
      ws.agent.write('a.txt', 'a after\n')
      // A process holding log.txt open for appending, writing nothing until told.
      const holder = spawn(process.execPath, ['-e', `const fs = require('node:fs'); const fd = fs.openSync(process.argv[1], 'a'); process.stdout.write('open'); process.stdin.on('data', () => { fs.writeSync(fd, 'late\\n'); fs.closeSync(fd); process.exit(0) })`, join(ws.root, 'log.txt')], { stdio: ['pipe', 'pipe', 'inherit'] })
      await new Promise((opened) => holder.stdout.once('data', opened))
      const plan = await ws.rt.handlers['rewind.plan']({ sessionId: ws.writer.id, turn: 1 })
      const result = await ws.rt.handlers['rewind.apply']({ sessionId: ws.writer.id, turn: 1, token: plan.token, defaultChoice: 'skip', choices: [], confirmed: [], excluded: [] })
      expect(result.keptDuring?.map((kept) => [kept.path, kept.keptAs])).toEqual([['log.txt', 'log.txt.retrace-kept']])
      const said: string[] = []
      printResult(result, { out: (line) => said.push(line), err: (line) => said.push(line) })
      expect(said).toContain('  log.txt was written to while the rewind ran: that version is kept as log.txt.retrace-kept (and saved in Retrace)')
      const exited = new Promise((done) => holder.once('exit', done))
      holder.stdin.end('write')
      await exited
      await ws.settled()
      expect(ws.text('log.txt')).toBe('before\n')
      expect(ws.text('log.txt.retrace-kept')).toBe('after\nlate\n') // the late write landed in the kept file
      expect(ws.text('a.txt')).toBe('a before\n')
    } finally {
      ws.dispose()
    }
  })

  for (const [label, batchFrom] of [['on the writer threads', undefined], ['one by one', Number.POSITIVE_INFINITY]] as const) {
    it(`loses no record a real writer wrote, in ${RUNS} runs, ${label}, starting midway (R33)`, async () => {
      for (let run = 0; run < RUNS; run++) {
        const ws = workspaceAfterTurn()
        try {
          await oneRun(ws, SCENES.midway, batchFrom, run)
        } finally {
          ws.dispose()
        }
      }
    }, 300_000)

    it(`keeps and lists the files set aside that a writer still holds open, in ${RUNS} runs, ${label}, starting at the end (R33)`, async () => {
      let appliedRuns = 0
      for (let run = 0; run < RUNS; run++) {
        const ws = workspaceAfterTurn()
        try {
          const { applied, kept } = await oneRun(ws, SCENES['at the end'], batchFrom, run)
          if (applied) appliedRuns += 1
          // The writer held descriptors to name(1) and name(3) (busy-writer.mjs: every other
          // file) when the rewind set them aside: on Linux that is seen, and they are kept.
          if (applied && process.platform === 'linux') expect(kept.sort(), `run ${run}`).toEqual([`${name(1)}.retrace-kept`, `${name(3)}.retrace-kept`])
        } finally {
          ws.dispose()
        }
      }
      expect(appliedRuns, 'runs in which the rewind completed with the writer at work').toBeGreaterThan(0)
    }, 300_000)
  }
})
