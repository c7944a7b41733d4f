import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { EventMessage } from '../../shared/contract'
import { HANDOFF_VERSION, hookSocketPath, MAX_HANDOFF_BYTES } from '../agent-hooks/hook-handoff'
import { readHookRuns } from '../agent-hooks/hook-log'
import { handOffHook } from '../cli/hooks/handoff-client'
import { tempDir } from '../testing/temp-runtime'
import { captureHookTurn } from './hook-turn'
import { createRuntime, type Runtime } from './runtime'

const dirs: ReturnType<typeof tempDir>[] = []
const runtimes: Runtime[] = []
afterEach(async () => {
  runtimes.splice(0).forEach((runtime) => runtime.close())
  await new Promise((resolve) => setTimeout(resolve, 20)) // the store closes once the socket's captures are done
  dirs.splice(0).forEach((dir) => dir.dispose())
})

function socketOf(dataDir: string): string {
  const path = hookSocketPath(dataDir)
  if (!path) throw new Error(`${dataDir} is too long a path for a socket`)
  return path
}

function folders() {
  const data = tempDir('retrace-data-')
  const project = tempDir('retrace-project-')
  dirs.push(data, project)
  return { data: data.path, project: project.path }
}

/** The app (or `serve`): a runtime that takes the turns hooks hand over. */
async function app(dataDir: string, followImports = false): Promise<Runtime> {
  const runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: '0.0.0-test', env: {}, followImports, serveHooks: {} })
  runtimes.push(runtime)
  await runtime.takesHookTurns
  return runtime
}

/** bin/retrace.js's first step for `checkpoint PHASE --hook AGENT --data-dir DIR`, with the agent's JSON on stdin. */
async function hook(dataDir: string, agent: string, phase: string, input: unknown, env: NodeJS.ProcessEnv = {}) {
  const stdin = Readable.from([Buffer.from(JSON.stringify(input))]) as unknown as NodeJS.ReadStream
  let printed = ''
  const stdout = new PassThrough().on('data', (chunk: Buffer) => (printed += chunk.toString()))
  const outcome = await handOffHook(['checkpoint', phase, '--hook', agent, '--data-dir', dataDir], env, stdin, stdout)
  return { outcome, printed }
}

/** A raw connection to the socket: what it sends, and every line it gets back. */
function exchange(socketPath: string, bytes: Buffer | string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath)
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve(received.split('\n').filter(Boolean)))
    socket.write(bytes)
  })
}

describe('hooks hand their turn to the running app (hooks.sock)', () => {
  it('Cursor: the app captures the turn, logs it as its own, and the hook prints exactly what Cursor reads', async () => {
    const { data, project } = folders()
    await app(data)
    writeFileSync(join(project, 'a.ts'), 'export {}\n')
    const turn = { conversation_id: 'c0ffee00-0000-4000-8000-000000000001', generation_id: 'gen-1', workspace_roots: [project], cursor_version: '2.0.77' }
    expect(await hook(data, 'cursor', 'begin', { ...turn, hook_event_name: 'beforeSubmitPrompt', prompt: 'rename a.ts' })).toEqual({ outcome: { handled: true }, printed: '{"continue":true}\n' })
    rmSync(join(project, 'a.ts'))
    writeFileSync(join(project, 'b.ts'), 'export {}\n')
    expect(await hook(data, 'cursor', 'end', { ...turn, hook_event_name: 'stop', status: 'completed' })).toEqual({ outcome: { handled: true }, printed: '{}\n' })
    expect(readHookRuns(data).map((run) => [run.phase, run.workspace, run.turn, run.changes, run.error, run.via, run.pid])).toEqual([
      ['begin', project, 1, null, null, 'app', process.pid],
      ['end', project, 1, 1, null, 'app', process.pid]
    ])
  })

  it('a capture that fails in the app is logged there, and the hook still exits quietly', async () => {
    const { data, project } = folders()
    await app(data)
    const gone = join(project, 'gone')
    expect(await hook(data, 'claude-code', 'begin', { session_id: 's-1', cwd: gone, prompt: 'hi' })).toEqual({ outcome: { handled: true }, printed: '' })
    expect(readHookRuns(data).map((run) => [run.phase, run.via, run.error?.includes(gone)])).toEqual([['begin', 'app', true]])
  })

  it('the socket is its owner\'s alone (0600), a second Retrace on the folder leaves it to the first, and it goes with its app', async () => {
    const { data } = folders()
    const first = await app(data)
    const socket = socketOf(data)
    expect(lstatSync(socket).isSocket()).toBe(true)
    expect(lstatSync(socket).mode & 0o777).toBe(0o600)
    const second = await app(data)
    expect(await second.takesHookTurns).toBe(false)
    expect(lstatSync(socket).isSocket()).toBe(true)
    first.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(existsSync(socket)).toBe(false)
  })

  it('a data folder too deep for a socket path is not served (the path would be cut short, outside the folder)', async () => {
    const { data, project } = folders()
    const deep = join(data, 'd'.repeat(120))
    mkdirSync(deep)
    const runtime = await app(deep)
    expect(await runtime.takesHookTurns).toBe(false)
    expect(readdirSync(deep).filter((name) => name.startsWith('hooks'))).toEqual([])
    expect(readdirSync(data)).toEqual(['d'.repeat(120)])
    const input = { session_id: 's-1', cwd: project }
    expect((await hook(deep, 'claude-code', 'begin', input)).outcome).toEqual({ handled: false, input: { payload: input } })
  })

  it('refuses a request that is not a hook\'s, and one too large, and captures nothing', async () => {
    const { data, project } = folders()
    await app(data)
    const socket = socketOf(data)
    const request = { version: HANDOFF_VERSION, agent: 'claude-code', phase: 'begin', payload: { session_id: 's-1', cwd: project }, cwd: project, env: {} }
    expect(await exchange(socket, 'rm -rf /\n')).toEqual([expect.stringMatching(/^\{"refused":"not a hook's request: /)])
    expect(await exchange(socket, `${JSON.stringify({ ...request, phase: 'rewind' })}\n`)).toEqual([expect.stringContaining('phase')])
    expect(await exchange(socket, `${JSON.stringify({ ...request, cwd: 'relative/folder' })}\n`)).toEqual([expect.stringContaining('cwd: an absolute folder')])
    expect(await exchange(socket, `${JSON.stringify({ ...request, command: 'touch /tmp/x' })}\n`)).toEqual([expect.stringContaining('refused')])
    expect(await exchange(socket, `${JSON.stringify({ ...request, version: 2 })}\n`)).toEqual([expect.stringContaining('version')])
    // A request with no end in sight: refused once past the bound, not held in memory.
    expect(await exchange(socket, Buffer.alloc(MAX_HANDOFF_BYTES + 1, 0x20))).toEqual([`{"refused":"a request is at most ${MAX_HANDOFF_BYTES} bytes"}`])
    expect(readHookRuns(data)).toEqual([])
  })

  it('a refused request leaves the turn to the hook, with the input it read', async () => {
    const { data, project } = folders()
    await app(data)
    const input = { session_id: 's-1', cwd: project, prompt: 'hi' }
    // A project folder longer than any path: the app refuses the request, the hook's own process would try it.
    const { outcome, printed } = await hook(data, 'claude-code', 'begin', input, { CLAUDE_PROJECT_DIR: `/${'x'.repeat(5000)}` })
    expect({ outcome, printed }).toEqual({ outcome: { handled: false, input: { payload: input } }, printed: '' })
    expect(readHookRuns(data)).toEqual([])
  })

  it('a socket file a killed app left behind: the hook does its turn itself, and the next app takes the socket over', async () => {
    const { data, project } = folders()
    const socket = socketOf(data)
    const holder = spawn(process.execPath, ['-e', "require('node:net').createServer().listen(process.argv[1], () => console.log('up'))", socket], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise((resolve) => holder.stdout.once('data', resolve))
    holder.kill('SIGKILL')
    await new Promise((resolve) => holder.once('exit', resolve))
    expect(lstatSync(socket).isSocket()).toBe(true)
    const input = { session_id: 's-1', cwd: project, prompt: 'hi' }
    expect(await hook(data, 'claude-code', 'begin', input)).toEqual({ outcome: { handled: false, input: { payload: input } }, printed: '' })
    await app(data)
    expect(await hook(data, 'claude-code', 'begin', input)).toEqual({ outcome: { handled: true }, printed: '' })
    expect(readHookRuns(data)).toMatchObject([{ via: 'app', turn: 1, error: null }])
  })

  it('the app publishes its own captures once, and still follows the log for the hooks that captured their turns themselves', async () => {
    const { data, project } = folders()
    const runtime = await app(data, true)
    const events: { at: number; event: EventMessage }[] = []
    runtime.feed.subscribe((event) => events.push({ at: Date.now(), event }))
    expect((await hook(data, 'claude-code', 'begin', { session_id: 's-1', cwd: project, prompt: 'hi' })).outcome).toEqual({ handled: true })
    const served = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 2500)) // the log is polled every second
    expect(events.length).toBeGreaterThan(0)
    expect(events.filter(({ at }) => at > served + 200)).toEqual([])
    // A hook's own process (another process, as far as the log says) is followed as before.
    await captureHookTurn({ agent: 'claude-code', phase: 'end', payload: { session_id: 's-1', cwd: project }, cwd: project, env: {} }, { dataDir: data, open: () => Promise.resolve(runtime), via: 'hook' })
    const captured = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(events.filter(({ at }) => at > captured + 200).map(({ event }) => event.name)).toContain('data.changed')
  })
})
