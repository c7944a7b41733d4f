// `npm start`: open the Retrace window, or serve the same app in the browser where no window can
// open. Electron 45 no longer downloads its binary when it is installed (electron-vite's
// `preview` then fails with "Electron uninstall"): the binary is fetched here the first time, the
// way Electron's own index.js does, by running its install.js. Arguments after `npm start --`
// (e.g. `--data-dir DIR`) go to the window or to `retrace serve`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { constants } from 'node:os'
import { dirname, join } from 'node:path'
import { browserOpener, buildIsStale, electronBinary, hasDisplay, nextStep, webModeNotice, type StartFacts } from './start-plan.mts'

const root = join(import.meta.dirname, '..')
const args = process.argv.slice(2)
// Resolved, not required: requiring `electron` starts a download when the binary is missing.
const electronDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'))

if (buildIsStale(root)) {
  const built = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) {
    console.error('Retrace: the build failed (above), so there is nothing to start.')
    process.exit(built.status ?? 1)
  }
}

const facts: StartFacts = { electronBinary: electronBinary(electronDir, process.env), fetch: 'untried', hasDisplay: hasDisplay(process.platform, process.env) }
let step = nextStep(facts)
if (step.do === 'fetch') {
  facts.fetch = { failed: fetchElectron() }
  facts.electronBinary = electronBinary(electronDir, process.env)
  step = nextStep(facts)
}
if (step.do === 'electron') openWindow(step.binary)
else if (step.do === 'web') serveInBrowser(step.why)
else throw new Error(`npm start: nothing to do after fetching Electron (${JSON.stringify(facts)})`)

/** Electron's install.js, as `npx install-electron` and Electron's index.js run it; null when it worked, else why not (one line). */
function fetchElectron(): string | null {
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as { version: string }
  console.log(`Retrace: downloading the Electron ${version} binary for the window (once)…`)
  const fetched = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' })
  if (fetched.status === 0) return null
  // install.js prints the error's stack: its first line says what failed.
  const reason = (fetched.stderr ?? '').split('\n').find((line) => line.trim() !== '' && !/^\s+at /.test(line))?.trim()
  return reason || (fetched.error ? fetched.error.message : `install.js exited with ${fetched.status ?? fetched.signal}`)
}

function openWindow(binary: string): void {
  // As electron-vite's preview did: NO_SANDBOX=1 for a user (root, a container) without a sandbox.
  const sandbox = process.env.NO_SANDBOX === '1' ? ['--no-sandbox'] : []
  follow(spawn(binary, [root, ...sandbox, ...args], { cwd: root, stdio: 'inherit' }))
}

function serveInBrowser(why: string): void {
  console.log(webModeNotice(why))
  const server = spawn(process.execPath, [join(root, 'bin', 'retrace.js'), 'serve', ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] })
  let printed = ''
  let opened = false
  server.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk)
    if (opened) return
    printed += chunk.toString()
    const url = /Retrace is serving (http:\/\/\S+)/.exec(printed)?.[1]
    if (!url) return
    opened = true
    openBrowser(url)
  })
  follow(server)
}

/** The default browser, never waited for: the address is printed whatever happens. */
function openBrowser(url: string): void {
  const opener = browserOpener(process.platform, process.env, url)
  if (!opener) return
  try {
    const child = spawn(opener.command, opener.args, { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // no opener here: the address above is the way in
  }
}

/** This process ends as its child does; Ctrl+C or a service manager's SIGTERM reaches the child, which shuts down cleanly. */
function follow(child: ChildProcess): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`Retrace: cannot start ${child.spawnfile}: ${error.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)))
}
