import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, screen, type WebFrameMain } from 'electron'
import { mainWindowWebPreferences } from './web-preferences'
import { loadWindowState, MIN_SIZE, placeWindow, saveWindowState } from './window-state'

/** Where the renderer is loaded from: the dev server in `electron-vite dev`, the built file otherwise. */
export function rendererLocation(): { url: string; file: string | null } {
  const devUrl = process.env.ELECTRON_RENDERER_URL
  if (devUrl) return { url: devUrl, file: null }
  const file = join(__dirname, '../renderer/index.html')
  return { url: pathToFileURL(file).href, file }
}

/**
 * Only the app's own top-level page may call the contract: a frame loaded from anywhere else
 * (an iframe, a navigation that slipped through) is refused.
 */
export function isTrustedFrame(frame: WebFrameMain | null | undefined): boolean {
  if (!frame || frame.parent) return false
  const expected = new URL(rendererLocation().url)
  let actual: URL
  try {
    actual = new URL(frame.url)
  } catch {
    return false
  }
  if (expected.protocol === 'file:') return actual.protocol === 'file:' && actual.pathname === expected.pathname
  return actual.origin === expected.origin
}

/** The window opens where it was last closed (in Electron's userData folder, not the data folder). */
function windowStateFile(): string {
  return join(app.getPath('userData'), 'window-state.json')
}

export function createMainWindow(): BrowserWindow {
  const placed = placeWindow(loadWindowState(windowStateFile()), screen.getAllDisplays().map((display) => display.workArea))
  const window = new BrowserWindow({
    ...placed.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Retrace',
    backgroundColor: '#15171c',
    webPreferences: mainWindowWebPreferences(join(__dirname, '../preload'))
  })
  window.once('ready-to-show', () => {
    if (placed.maximized) window.maximize()
    window.show()
  })
  window.on('close', () => {
    try {
      saveWindowState(windowStateFile(), { ...window.getNormalBounds(), maximized: window.isMaximized() })
    } catch {
      // Remembering the window is a convenience; failing to must not stop it from closing.
    }
  })
  void window.loadURL(rendererLocation().url)
  return window
}
