import { spawn } from 'node:child_process'
import { join } from 'node:path'

const ROOT = join(__dirname, '..', '..')

/** A `retrace serve` on a data folder, as a user starts it (the built CLI), until `stop`. */
export interface ServeProcess {
  pid: number
  stop(): Promise<void>
}

/**
 * Start `retrace serve --port 0 --data-dir DATA` and wait for the line with its URL (by then it
 * takes the hooks' turns: it listens on hooks.sock before printing it). `env` is all it gets
 * besides PATH: the bench points HOME and the agents' folders at scratch ones, and turns the
 * background import off, so nothing of the machine's own histories is read.
 */
export function startServe(data: string, env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'retrace.js'), 'serve', '--port', '0', '--data-dir', data], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', RETRACE_BACKGROUND_IMPORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`retrace serve printed no URL within 60 s:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (!/Retrace is serving http/.test(output)) return
      clearTimeout(timer)
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      resolve({
        pid: child.pid ?? 0,
        stop: async () => {
          child.kill('SIGINT')
          await exited
        }
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`retrace serve exited with ${code}:\n${output}`))
    })
  })
}
