import { spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { noAgentHomes, PROJECT_ROOT, startRetraceServer } from '../support/retrace-server'

const BIN = join(PROJECT_ROOT, 'bin/retrace.js')

const ownerFile = (data: string) => JSON.parse(readFileSync(join(data, 'app.pid'), 'utf8')) as { pid: number; by: string; url?: string }
/** The pid app.pid names, or null without one (an older Retrace wrote the bare pid). */
function ownerPid(data: string): number | null {
  if (!existsSync(join(data, 'app.pid'))) return null
  const text = readFileSync(join(data, 'app.pid'), 'utf8')
  return /^\d+$/.test(text.trim()) ? Number(text) : ownerFile(data).pid
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** What `retrace import --all --watch` (the user service) says within 15 s, or once it says it waits for a running app; then Ctrl+C. */
async function watchServiceSays(data: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'import', '--all', '--watch', '--data-dir', data], { env: { ...process.env, RETRACE_HOME: '', ...noAgentHomes(data) }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 15_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('waiting until it closes')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGINT')
  await exited
  return output
}

/** A serve that owns the folder's background work: importing every agent's history (none here: an empty home). */
const owner = () => ({ RETRACE_BACKGROUND_IMPORT: '1', HOME: join(tmpdir(), 'retrace-owner-no-home') })

test.describe('one data folder, one owner: two `retrace serve` on one folder (R18)', () => {
  let data: string
  test.beforeEach(() => {
    data = mkdtempSync(join(tmpdir(), 'retrace-owner-'))
  })
  test.afterEach(() => rmSync(data, { recursive: true, force: true }))

  test('the second says who owns the folder and serves without background work; its exit leaves the first\'s pid file and socket', async ({ request }) => {
    const first = await startRetraceServer([], owner(), { dataDir: data })
    try {
      const socket = join(data, 'hooks.sock')
      const socketInode = lstatSync(socket).ino
      const second = await startRetraceServer([], owner(), { dataDir: data })
      // It serves the same store all the same.
      expect((await request.get(second.url)).status()).toBe(200)
      expect(await second.stop()).toBe(0)

      expect(ownerPid(data)).toBe(first.pid)
      expect(lstatSync(socket).ino).toBe(socketInode)
      expect(await socketAnswers(socket)).toBe(true)
      // So the user service still defers to the running owner.
      expect(await watchServiceSays(data)).toContain('The Retrace app is running and importing: waiting until it closes.')
      expect(second.output()).toContain(`retrace: The data folder ${data} is in use by retrace serve (pid ${first.pid}, at ${first.url}), which imports the agents' histories in the background and takes their hooks' turns: this one leaves both to it.`)
      expect(ownerFile(data)).toEqual({ pid: first.pid, started: expect.any(String) as unknown, by: 'retrace serve', url: first.url })
    } finally {
      await first.stop()
    }
    expect(existsSync(join(data, 'app.pid'))).toBe(false)
    expect(existsSync(join(data, 'hooks.sock'))).toBe(false)
  })

  test('an owner killed with SIGKILL is taken over by the next serve, pid file and socket', async () => {
    const crashed = await startRetraceServer([], owner(), { dataDir: data })
    await crashed.kill()
    // What it left: its pid file and its socket file, no one behind either.
    expect(ownerPid(data)).toBe(crashed.pid)
    expect(lstatSync(join(data, 'hooks.sock')).isSocket()).toBe(true)

    const next = await startRetraceServer([], owner(), { dataDir: data })
    try {
      expect(next.output()).not.toContain('is in use by')
      expect(ownerPid(data)).toBe(next.pid)
      expect(await socketAnswers(join(data, 'hooks.sock'))).toBe(true)
      expect(ownerFile(data)).toMatchObject({ pid: next.pid, by: 'retrace serve', url: next.url })
    } finally {
      expect(await next.stop()).toBe(0)
    }
    expect(existsSync(join(data, 'app.pid'))).toBe(false)
  })
})
