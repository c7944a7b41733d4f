import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const PROJECT_ROOT = resolve(__dirname, '../..')

export interface RunningServer {
  url: string
  origin: string
  token: string
  dataDir: string
  /** Everything the server printed so far (stdout and stderr), for failure messages. */
  output(): string
  /** Ctrl+C, as a user would stop it; resolves to the exit code. */
  stop(): Promise<number | null>
  /** The server's pid, and SIGKILL: a crash, nothing cleaned up. */
  pid: number
  kill(): Promise<void>
}

/**
 * Start the real CLI, `retrace serve`, on a fresh data folder (or `options.dataDir`, which is then
 * the caller's to remove), exactly as a user would, and wait for the line that prints its URL.
 */
export async function startRetraceServer(args: string[] = ['--demo'], env: NodeJS.ProcessEnv = {}, options: { dataDir?: string } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'retrace-e2e-'))
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/retrace.js'), 'serve', '--port', '0', '--data-dir', dataDir, ...args], {
    cwd: PROJECT_ROOT,
    // The importers must never read the histories of whoever runs the tests.
    // No import of every agent's history in the background unless a spec asks (RETRACE_BACKGROUND_IMPORT: '1'):
    // specs that point an agent's home at fixtures watch the opened workspace's own import.
    env: { ...process.env, RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0', ...noAgentHomes(dataDir), ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const url = await waitForUrl(child)
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    dataDir,
    output: () => output,
    pid: child.pid ?? 0,
    async kill() {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGKILL')
      await exited
    },
    async stop() {
      let code = child.exitCode
      if (code === null && child.signalCode === null) {
        const exited = new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)))
        child.kill('SIGINT')
        code = await exited
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
      return code
    }
  }
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`retrace serve printed no URL within 30 s:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Retrace is serving (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`retrace serve exited with ${code}:\n${output}`))
    })
  })
}

/** Every agent's history folder moved to a place that does not exist: a test names the ones it fills. */
export function noAgentHomes(dataDir: string): NodeJS.ProcessEnv {
  const none = (name: string) => join(dataDir, `no-${name}`)
  return {
    CLAUDE_CONFIG_DIR: none('claude'),
    CODEX_HOME: none('codex'),
    GEMINI_CLI_HOME: none('gemini'),
    COPILOT_HOME: none('copilot'),
    RETRACE_CLINE_DIRS: none('cline'),
    XDG_DATA_HOME: none('xdg-data'),
    XDG_CONFIG_HOME: none('xdg-config'),
    XDG_STATE_HOME: none('xdg-state'),
    VSCODE_APPDATA: none('vscode')
  }
}
