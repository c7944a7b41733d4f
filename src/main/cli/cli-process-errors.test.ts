import { spawn, spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:net'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createRuntime } from '../runtime/runtime'
import { tempDir } from '../testing/temp-runtime'

const ROOT = resolve(__dirname, '../../..')
const CLI = [join(ROOT, 'node_modules/vite-node/dist/cli.mjs'), join(ROOT, 'src/main/testing/cli-process.ts'), '--']
const ENV = { ...process.env, RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0' }

/** The real `retrace` in a process of its own: what a user's shell sees (R40). */
describe('the retrace command says what went wrong in a sentence, in a process of its own (R40)', () => {
  const dirs: ReturnType<typeof tempDir>[] = []
  const servers: Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
    for (const dir of dirs.splice(0)) dir.dispose()
  })
  const folder = () => {
    const dir = tempDir('retrace-cli-errors-')
    dirs.push(dir)
    return dir.path
  }

  it('refuses a port already in use, naming it, instead of a stack trace', async () => {
    const taken = createServer()
    servers.push(taken)
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = (taken.address() as { port: number }).port
    const ran = spawnSync(process.execPath, [...CLI, 'serve', '--port', String(port), '--data-dir', join(folder(), 'data')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: ENV })
    expect(ran.stderr.trim()).toBe(`retrace: Port ${port} on 127.0.0.1 is already in use (another \`retrace serve\`?). Choose another with --port N, or leave --port out for a free one.`)
    expect(ran.status).toBe(1)
  })

  it('refuses a data folder on a pseudo file system (/proc) at once: Node\'s mkdir would spin there forever', () => {
    const ran = spawnSync(process.execPath, [...CLI, 'workspaces', '--data-dir', '/proc/retrace-test/data'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL', env: ENV })
    expect(ran.error).toBeUndefined() // not killed by the timeout
    expect(ran.stderr.trim()).toBe('retrace: Retrace cannot keep its data in /proc/retrace-test/data: /proc is a proc file system, which holds no files of its own. Choose another --data-dir (or RETRACE_HOME).')
    expect(ran.status).toBe(1)
  })

  it('ends quietly when the reader of its output goes away (`retrace show … | head`): no EPIPE, no stack trace', async () => {
    const dataDir = join(folder(), 'data')
    const rt = createRuntime({ dataDir, host: { binding: 'web' }, version: 'test' })
    const writer = rt.recorder.startSession({ workspaceId: rt.store.workspaces.open(folder(), 'long'), source: 'native', title: 'A long session' })
    for (let i = 0; i < 400; i++) writer.append({ role: i % 2 ? 'assistant' : 'user', content: `line ${i} ${'x'.repeat(400)}` })
    const sessionId = writer.id
    rt.close()
    await rt.closed

    const child = spawn(process.execPath, [...CLI, 'show', sessionId, '--data-dir', dataDir], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    // Like `head -1`: read the first chunk, then close the pipe while the command still has 160 KiB to write.
    await new Promise<void>((done) => child.stdout.once('data', () => done()))
    child.stdout.destroy()
    const code = await new Promise<number | null>((done) => child.on('exit', (status) => done(status)))
    expect(stderr).toBe('')
    expect(code).toBe(0)
  })
})
