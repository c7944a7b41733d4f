import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../../cli/main'
import { tempDir } from '../../testing/temp-runtime'

const ROOT = resolve(__dirname, '../../../..')
const VITE_NODE = join(ROOT, 'node_modules/vite-node/dist/cli.mjs')
const WRITER_CHILD = join(__dirname, 'testing/intent-writer-child.ts')

const captured = () => {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (text: string) => out.push(text), err: (text: string) => err.push(text) } }
}

describe('an intent log torn by a crash while it is written (R35)', () => {
  let dir: ReturnType<typeof tempDir>
  afterEach(() => dir.dispose())

  it('never shows a partly written intent log under its name, watched while a real process writes a large one (R35)', async () => {
    dir = tempDir('retrace-intent-')
    for (let run = 0; run < 3; run++) {
      const dataDir = join(dir.path, `data-${run}`)
      mkdirSync(dataDir)
      const rewindId = randomUUID()
      const log = join(dataDir, 'intents', `${rewindId}.json`)
      const child = spawn(process.execPath, [VITE_NODE, WRITER_CHILD, dataDir, '150000', rewindId], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
      const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit))
      // Polled synchronously, as fast as this process can: each size seen under the log's own name.
      const seen = new Set<number>()
      const done = join(dataDir, 'done')
      const deadline = Date.now() + 90_000
      while (!existsSync(done) && Date.now() < deadline) {
        const stats = statSync(log, { throwIfNoEntry: false })
        if (stats) seen.add(stats.size)
      }
      expect(await exited).toBe(0)
      const whole = statSync(log).size
      expect(whole).toBeGreaterThan(10_000_000)
      expect([...seen].filter((size) => size !== whole), `run ${run}: sizes other than the whole log's ${whole} bytes seen under its name`).toEqual([])
      expect(readdirSync(join(dataDir, 'intents'))).toEqual([`${rewindId}.json`]) // no temp file left
      expect((JSON.parse(readFileSync(log, 'utf8')) as { steps: unknown[] }).steps).toHaveLength(150_000)
    }
  }, 240_000)

  it('warns once, `retrace recovery` says what the log is and clears it, and later commands are quiet (R35)', async () => {
    dir = tempDir('retrace-intent-')
    const dataDir = join(dir.path, 'data')
    const workspace = join(dir.path, 'project')
    mkdirSync(workspace)
    expect(await runCli(['workspaces', '--data-dir', dataDir], captured().io, {})).toBe(0) // the data folder made
    const rewindId = randomUUID()
    const whole = JSON.stringify({ version: 1, rewindId, root: Buffer.from(workspace).toString('base64'), startedAt: Date.now(), pid: 1, steps: [{ kind: 'write', path: Buffer.from('a.txt').toString('base64'), pre: null, post: null }] })
    const torn = whole.slice(0, whole.indexOf('"steps"') + 20)
    mkdirSync(join(dataDir, 'intents'), { recursive: true })
    writeFileSync(join(dataDir, 'intents', `${rewindId}.json`), torn)
    const staleTemp = join(dataDir, 'intents', `4194305-${randomUUID()}.json.tmp`) // a writer that died before its rename (no such pid)
    writeFileSync(staleTemp, torn)

    const first = captured()
    expect(await runCli(['workspaces', '--data-dir', dataDir], first.io, {})).toBe(0)
    expect(first.err).toHaveLength(1)
    expect(first.err[0]).toContain(`${rewindId}.json cannot be read`)
    expect(first.err[0]).toContain('retrace recovery')
    expect(existsSync(staleTemp)).toBe(false)

    const recovery = captured()
    expect(await runCli(['recovery', '--data-dir', dataDir], recovery.io, {})).toBe(0)
    const said = recovery.out.join('\n')
    expect(said).toContain(`The intent log ${join(dataDir, 'intents', `${rewindId}.json`)} cannot be read`)
    expect(said).toContain('torn') // what it is: its JSON ends early
    expect(said).toContain(`${torn.length} bytes`)
    expect(said).toContain(workspace) // the workspace it names, read from what is there
    expect(said).toContain(join(dataDir, 'intents', 'unreadable', `${rewindId}.json`))
    expect(readFileSync(join(dataDir, 'intents', 'unreadable', `${rewindId}.json`), 'utf8')).toBe(torn) // kept, byte for byte, where nothing reads it
    expect(readdirSync(join(dataDir, 'intents')).filter((name) => name.endsWith('.json'))).toEqual([])

    for (const args of [['workspaces'], ['recovery']]) {
      const later = captured()
      expect(await runCli([...args, '--data-dir', dataDir], later.io, {})).toBe(0)
      expect(later.err, `retrace ${args.join(' ')} after the log was cleared`).toEqual([])
    }
  })
})
