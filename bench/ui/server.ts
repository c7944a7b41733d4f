import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from '../lib/child'

export interface Served {
  /** The printed URL, token included. */
  url: string
  origin: string
  stop(): Promise<void>
}

/** `retrace serve` as a user starts it: the built CLI, on the generated data folder. */
export async function serve(dataDir: string): Promise<Served> {
  const root = projectRoot()
  const cli = join(root, 'bin/retrace.js')
  const built = join(root, 'out/renderer/index.html')
  if (!existsSync(built)) throw new Error('The app is not built: run `npm run build` first (the bench serves out/renderer).')
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    // Nothing of whoever runs the bench is imported when the workspace opens.
    env: { ...process.env, RETRACE_HOME: '', CLAUDE_CONFIG_DIR: join(dataDir, 'no-claude'), CODEX_HOME: join(dataDir, 'no-codex') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`retrace serve printed no URL within 30 s:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Retrace is serving (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`retrace serve exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    origin: new URL(url).origin,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      child.kill('SIGINT')
      await exited
    }
  }
}

/** The built renderer's age against the newest renderer source: a stale build measures old code. */
export function staleBuildWarning(): string | null {
  const root = projectRoot()
  const built = statSync(join(root, 'out/renderer/index.html')).mtimeMs
  const newest = newestMtime(join(root, 'src/renderer/src'))
  return newest > built ? `out/renderer is older than src/renderer (built ${new Date(built).toISOString()}, a source changed ${new Date(newest).toISOString()}): run \`npm run build\` to measure the current code.` : null
}

function newestMtime(dir: string): number {
  let newest = 0
  const walk = (path: string): void => {
    const stat = statSync(path)
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name))
    } else newest = Math.max(newest, stat.mtimeMs)
  }
  walk(dir)
  return newest
}
