import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { browserOpener, buildIsStale, electronBinary, hasDisplay, nextStep, webModeNotice } from './start-plan.mts'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'retrace-start-'))
  dirs.push(dir)
  return dir
}

describe('npm start decides: the window, a fetch of its binary, or the app in the browser', () => {
  it('opens the window with the binary Electron would run, fetches it once when it is missing, and serves in the browser when that failed', () => {
    expect(nextStep({ electronBinary: '/e/dist/electron', fetch: 'untried', hasDisplay: true })).toEqual({ do: 'electron', binary: '/e/dist/electron' })
    expect(nextStep({ electronBinary: null, fetch: 'untried', hasDisplay: true })).toEqual({ do: 'fetch' })
    const failed = nextStep({ electronBinary: null, fetch: { failed: 'TypeError: fetch failed' }, hasDisplay: true })
    expect(failed).toEqual({ do: 'web', why: 'the Electron binary for the window could not be downloaded (TypeError: fetch failed)' })
    expect(nextStep({ electronBinary: null, fetch: { failed: null }, hasDisplay: true })).toEqual({ do: 'web', why: 'the Electron binary for the window could not be downloaded (it was fetched, but no binary is where Electron looks for it)' })
    expect(webModeNotice(failed.do === 'web' ? failed.why : '')).toBe(
      'Retrace: the Electron binary for the window could not be downloaded (TypeError: fetch failed), so Retrace is served in your browser instead, at the address below.'
    )
  })

  it('without a display, serves in the browser at once: neither the window nor a download of it could help', () => {
    for (const electronBinary of ['/e/dist/electron', null]) {
      expect(nextStep({ electronBinary, fetch: 'untried', hasDisplay: false })).toEqual({ do: 'web', why: 'there is no display here for the window (neither DISPLAY nor WAYLAND_DISPLAY is set)' })
    }
    expect(hasDisplay('linux', {})).toBe(false)
    expect(hasDisplay('linux', { DISPLAY: ':0' })).toBe(true)
    expect(hasDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true)
    expect(hasDisplay('darwin', {})).toBe(true)
    expect(hasDisplay('win32', {})).toBe(true)
  })

  it('finds the binary as Electron 45\'s index.js does: path.txt names it in dist/, or in ELECTRON_OVERRIDE_DIST_PATH', () => {
    const electron = folder()
    expect(electronBinary(electron, {})).toBeNull() // a fresh install: no path.txt
    writeFileSync(join(electron, 'path.txt'), 'electron')
    expect(electronBinary(electron, {})).toBeNull() // named, but not extracted
    mkdirSync(join(electron, 'dist'))
    writeFileSync(join(electron, 'dist', 'electron'), '')
    expect(electronBinary(electron, {})).toBe(join(electron, 'dist', 'electron'))
    const override = folder()
    expect(electronBinary(electron, { ELECTRON_OVERRIDE_DIST_PATH: override })).toBeNull()
    writeFileSync(join(override, 'electron'), '')
    expect(electronBinary(electron, { ELECTRON_OVERRIDE_DIST_PATH: override })).toBe(join(override, 'electron'))
  })

  it('opens the default browser only on a desktop, or with $BROWSER (`none`: never)', () => {
    const url = 'http://127.0.0.1:1/?token=t'
    expect(browserOpener('linux', {}, url)).toBeNull()
    expect(browserOpener('linux', { DISPLAY: ':0' }, url)).toEqual({ command: 'xdg-open', args: [url] })
    expect(browserOpener('darwin', {}, url)).toEqual({ command: 'open', args: [url] })
    expect(browserOpener('win32', {}, url)).toEqual({ command: 'cmd', args: ['/c', 'start', '', url] })
    expect(browserOpener('linux', { BROWSER: '/usr/bin/firefox' }, url)).toEqual({ command: '/usr/bin/firefox', args: [url] })
    expect(browserOpener('darwin', { BROWSER: 'none' }, url)).toBeNull()
  })

  it('builds only when out/ is missing or older than the sources', () => {
    const root = folder()
    mkdirSync(join(root, 'src', 'main'), { recursive: true })
    writeFileSync(join(root, 'src', 'main', 'a.ts'), '')
    writeFileSync(join(root, 'electron.vite.config.ts'), '')
    expect(buildIsStale(root)).toBe(true)
    const then = new Date(Date.now() - 60_000)
    for (const path of [join(root, 'src', 'main', 'a.ts'), join(root, 'src', 'main'), join(root, 'src'), join(root, 'electron.vite.config.ts')]) utimesSync(path, then, then)
    for (const file of ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      mkdirSync(join(root, file, '..'), { recursive: true })
      writeFileSync(join(root, file), '')
    }
    expect(buildIsStale(root)).toBe(false)
    writeFileSync(join(root, 'src', 'main', 'a.ts'), 'changed')
    expect(buildIsStale(root)).toBe(true)
  })
})
