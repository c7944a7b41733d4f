import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { hookSocketPath } from '../agent-hooks/hook-handoff'
import { processStart } from '../journal/process-owner'
import { tempDir } from '../testing/temp-runtime'
import { claimDataFolder, dataFolderOwner, notOwnerNotice } from './data-folder-owner'
import { createRuntime, type Runtime } from './runtime'

const dirs: ReturnType<typeof tempDir>[] = []
const runtimes: Runtime[] = []
const children: ChildProcess[] = []
afterEach(async () => {
  runtimes.splice(0).forEach((runtime) => runtime.close())
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await new Promise((resolve) => setTimeout(resolve, 20))
  dirs.splice(0).forEach((dir) => dir.dispose())
})

function dataFolder(): string {
  const dir = tempDir('retrace-owner-')
  dirs.push(dir)
  return dir.path
}

/** What `retrace serve` builds: background imports (tuned off here: no history to read) and the hooks' socket. */
async function serveRuntime(dataDir: string): Promise<Runtime> {
  const runtime = createRuntime({ dataDir, host: { binding: 'web' }, version: '0.0.0-test', env: { RETRACE_BACKGROUND_IMPORT: '0' }, followImports: false, backgroundImport: true, serveHooks: {} })
  runtimes.push(runtime)
  await runtime.takesHookTurns
  return runtime
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

const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout)

function liveProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  children.push(child)
  return child
}

describe('one data folder, one owner of its background work (R18)', () => {
  it('a second app or serve on the folder says who owns it, takes no hooks, and its close leaves the owner\'s pid file and socket', async () => {
    const data = dataFolder()
    const first = await serveRuntime(data)
    expect(first.dataFolder?.owned).toBe(true)
    expect(await first.takesHookTurns).toBe(true)
    if (first.dataFolder?.owned) first.dataFolder.announce('http://127.0.0.1:4000/?token=abc')
    const socket = hookSocketPath(data) ?? ''
    const socketBefore = lstatSync(socket).ino

    const second = await serveRuntime(data)
    expect(second.dataFolder).toEqual({ owned: false, owner: { pid: process.pid, started: processStart(process.pid), by: 'retrace serve', url: 'http://127.0.0.1:4000/?token=abc' } })
    expect(await second.takesHookTurns).toBe(false)
    expect(notOwnerNotice(data, second.dataFolder?.owned === false ? second.dataFolder.owner : null)).toBe(
      `The data folder ${data} is in use by retrace serve (pid ${process.pid}, at http://127.0.0.1:4000/?token=abc), which imports the agents' histories in the background and takes their hooks' turns: this one leaves both to it.`
    )
    second.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(dataFolderOwner(data)).toMatchObject({ pid: process.pid, by: 'retrace serve' })
    expect(lstatSync(socket).ino).toBe(socketBefore)
    expect(await socketAnswers(socket)).toBe(true)
    expect(statSync(join(data, 'app.pid')).mode & 0o777).toBe(0o600)

    first.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(dataFolderOwner(data)).toBeNull()
    expect(existsSync(join(data, 'app.pid'))).toBe(false)
    expect(existsSync(socket)).toBe(false)
    // Released: the next one owns it.
    const third = await serveRuntime(data)
    expect(third.dataFolder?.owned).toBe(true)
    expect(await third.takesHookTurns).toBe(true)
  })

  it('a one-shot command claims nothing', async () => {
    const data = dataFolder()
    const owner = await serveRuntime(data)
    const command = createRuntime({ dataDir: data, host: { binding: 'web' }, version: '0.0.0-test', env: {} })
    runtimes.push(command)
    expect(command.dataFolder).toBeNull()
    command.close()
    expect(dataFolderOwner(data)?.pid).toBe(process.pid)
    expect(owner.dataFolder?.owned).toBe(true)
  })

  it('what a crashed owner left (its pid file, its socket) is taken over by the next start', async () => {
    const data = dataFolder()
    const socket = hookSocketPath(data) ?? ''
    // A Retrace that listened on the socket and named itself in app.pid, then was killed: its lock went with it.
    const crashed = spawn(process.execPath, ['-e', "require('node:net').createServer().listen(process.argv[1], () => console.log('up'))", socket], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise((resolve) => crashed.stdout.once('data', resolve))
    const pid = crashed.pid ?? 0
    writeFileSync(join(data, 'app.pid'), JSON.stringify({ pid, started: processStart(pid), by: 'retrace serve', url: 'http://127.0.0.1:1/' }))
    expect(dataFolderOwner(data)?.pid).toBe(pid)
    crashed.kill('SIGKILL')
    await new Promise((resolve) => crashed.once('exit', resolve))
    expect(dataFolderOwner(data)).toBeNull()

    const next = await serveRuntime(data)
    expect(next.dataFolder?.owned).toBe(true)
    expect(await next.takesHookTurns).toBe(true)
    expect(JSON.parse(readFileSync(join(data, 'app.pid'), 'utf8'))).toEqual({ pid: process.pid, started: processStart(process.pid), by: 'retrace serve' })
  })

  it('the lock decides, not the file: a pid file naming a live process does not stop a claim while nobody holds the lock', () => {
    const data = dataFolder()
    const other = liveProcess()
    writeFileSync(join(data, 'app.pid'), String(other.pid))
    const claim = claimDataFolder(data, 'retrace serve')
    expect(claim.owned).toBe(true)
    expect(dataFolderOwner(data)?.pid).toBe(process.pid)
    const again = claimDataFolder(data, 'the Retrace app')
    expect(again).toEqual({ owned: false, owner: expect.objectContaining({ pid: process.pid, by: 'retrace serve' }) as unknown })
    if (claim.owned) claim.release()
    expect(claimDataFolder(data, 'the Retrace app').owned).toBe(true)
  })

  it('names no owner for a dead pid, a pid now another process\'s (its start differs), or a garbled file; an older Retrace\'s bare pid counts', async () => {
    const data = dataFolder()
    const file = join(data, 'app.pid')
    expect(dataFolderOwner(data)).toBeNull()
    writeFileSync(file, String(deadPid()))
    expect(dataFolderOwner(data)).toBeNull()
    const other = liveProcess()
    const pid = other.pid ?? 0
    await expect.poll(() => processStart(pid)).not.toBeNull()
    writeFileSync(file, JSON.stringify({ pid, started: `${processStart(pid)}-an-earlier-process`, by: 'retrace serve' }))
    expect(dataFolderOwner(data)).toBeNull()
    writeFileSync(file, '{"pid":')
    expect(dataFolderOwner(data)).toBeNull()
    writeFileSync(file, String(pid))
    expect(dataFolderOwner(data)).toEqual({ pid, by: 'a Retrace app' })
  })
})
