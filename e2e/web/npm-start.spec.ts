import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { FirstScreen } from '../pages/first-screen'
import { noAgentHomes, PROJECT_ROOT } from '../support/retrace-server'

/** `npm start -- ARGS` as a user types it in the clone, in a process group of its own (killed whole at the end). */
function npmStart(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, BROWSER: _browser, ...inherited } = process.env
  const child = spawn('npm', ['start', '--', ...args], { cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0', ...env } })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

/** The address `retrace serve` printed under npm start; fails at once, with all it printed, if npm start ends first. */
async function servedUrl(started: ReturnType<typeof npmStart>): Promise<string> {
  const address = () => /Retrace is serving (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(started.output())?.[1]
  const deadline = Date.now() + 60_000
  for (;;) {
    const url = address()
    if (url) return url
    if (started.child.exitCode !== null || started.child.signalCode !== null) throw new Error(`npm start ended (${started.child.exitCode ?? started.child.signalCode}) before serving:\n${started.output()}`)
    if (Date.now() > deadline) throw new Error(`npm start printed no address within 60 s:\n${started.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Ctrl+C to the whole group, as a terminal sends it; resolves once npm and everything under it ended. */
async function stop(started: ReturnType<typeof npmStart>): Promise<void> {
  if (started.child.exitCode === null) process.kill(-(started.child.pid ?? 0), 'SIGINT')
  await started.exited
}

test.describe('npm start', () => {
  let root: string
  test.beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'retrace-npm-start-'))
  })
  test.afterEach(() => rmSync(root, { recursive: true, force: true }))

  /** Where the Electron binary is missing and cannot be fetched, on any machine: an empty dist folder, a cache with nothing, a mirror that refuses. */
  const noElectron = () => ({ ELECTRON_OVERRIDE_DIST_PATH: join(root, 'no-electron'), electron_config_cache: join(root, 'no-cache'), ELECTRON_MIRROR: 'http://127.0.0.1:9/' })

  test('with a display but no Electron binary to be had: tries the download, says why it failed, serves the app and opens the browser', async ({ page }) => {
    const data = join(root, 'data')
    // The default browser: records the address it is asked to open (the test's Chromium then opens it).
    const opened = join(root, 'opened.txt')
    const browser = join(root, 'browser')
    writeFileSync(browser, `#!/bin/sh\necho "$1" >> ${opened}\n`)
    chmodSync(browser, 0o755)
    const started = npmStart(['--data-dir', data], { ...noElectron(), ...noAgentHomes(data), DISPLAY: ':99', BROWSER: browser })
    try {
      const url = await servedUrl(started)
      const lines = started.output().split('\n')
      const notice = lines.find((line) => line.startsWith('Retrace: the Electron binary'))
      expect(notice, started.output()).toMatch(/^Retrace: the Electron binary for the window could not be downloaded \(.+\), so Retrace is served in your browser instead, at the address below\.$/)
      expect(started.output()).toContain('Retrace: downloading the Electron 45')
      expect(started.output()).not.toMatch(/^\s+at /m) // a sentence, not install.js's stack trace
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8') : '')).toBe(`${url}\n`)

      const first = new FirstScreen(page)
      await first.goto(url)
      await expect(first.openDemoButton).toBeVisible()
    } finally {
      await stop(started)
    }
    // The server under npm and the script shut down cleanly: its claim on the data folder is gone.
    expect(existsSync(join(data, 'app.pid'))).toBe(false)
  })

  test('without a display: says so and serves the app at once (no download), the address printed for a browser elsewhere', async ({ page }) => {
    const data = join(root, 'data')
    const started = npmStart(['--data-dir', data], { ...noElectron(), ...noAgentHomes(data) })
    try {
      const url = await servedUrl(started)
      expect(started.output()).toContain('Retrace: there is no display here for the window (neither DISPLAY nor WAYLAND_DISPLAY is set), so Retrace is served in your browser instead, at the address below.')
      expect(started.output()).not.toContain('downloading')
      const first = new FirstScreen(page)
      await first.goto(url)
      await expect(first.openDemoButton).toBeVisible()
    } finally {
      await stop(started)
    }
  })

  test('with the binary where Electron looks for it and a display: runs that binary on the app folder with the user\'s arguments', async () => {
    // A stand-in at Electron's path (no window can open on this machine): it records how it was started.
    const dist = join(root, 'electron-dist')
    const ran = join(root, 'ran.txt')
    mkdirSync(dist)
    writeFileSync(join(dist, 'electron'), `#!/bin/sh\nprintf '%s\\n' "$@" > ${ran}\nexit 3\n`)
    chmodSync(join(dist, 'electron'), 0o755)
    const started = npmStart(['--data-dir', join(root, 'data')], { ELECTRON_OVERRIDE_DIST_PATH: dist, DISPLAY: ':99' })
    expect(await started.exited, started.output()).toBe(3) // its exit is npm start's
    expect(readFileSync(ran, 'utf8')).toBe(`${PROJECT_ROOT}\n--data-dir\n${join(root, 'data')}\n`)
    expect(started.output()).not.toContain('downloading')
    expect(started.output()).not.toContain('Retrace is serving')
  })
})
