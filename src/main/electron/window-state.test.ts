import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_SIZE, loadWindowState, placeWindow, saveWindowState } from './window-state'

const screen = { x: 0, y: 0, width: 1920, height: 1080 }
let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = ''
})

describe('remembering the window', () => {
  it('saves and loads its bounds, and treats a missing or garbled file as none', () => {
    dir = mkdtempSync(join(tmpdir(), 'retrace-window-'))
    const file = join(dir, 'window-state.json')
    expect(loadWindowState(file)).toBeNull()
    saveWindowState(file, { x: 10, y: 20, width: 1000, height: 700, maximized: true })
    expect(loadWindowState(file)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true })
    writeFileSync(file, '{"x": "left"')
    expect(loadWindowState(file)).toBeNull()
  })

  it('reopens where it was, shrinks to a smaller display, and falls back when the display is gone', () => {
    expect(placeWindow(null, [screen])).toEqual({ bounds: DEFAULT_SIZE, maximized: false })
    expect(placeWindow({ x: 100, y: 50, width: 1200, height: 800, maximized: false }, [screen]).bounds).toEqual({ x: 100, y: 50, width: 1200, height: 800 })
    // Saved on a larger monitor: kept on screen and no larger than it.
    expect(placeWindow({ x: 1500, y: 0, width: 2500, height: 1400, maximized: false }, [screen]).bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1080 })
    // Saved on a second monitor that is unplugged now.
    expect(placeWindow({ x: 2500, y: 0, width: 1000, height: 700, maximized: true }, [screen])).toEqual({ bounds: DEFAULT_SIZE, maximized: true })
  })
})
