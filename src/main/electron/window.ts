import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, type WebFrameMain } from 'electron'
import { mainWindowWebPreferences } from './web-preferences'

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

export function createMainWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'Retrace',
    backgroundColor: '#15171c',
    webPreferences: mainWindowWebPreferences(join(__dirname, '../preload'))
  })
  window.once('ready-to-show', () => window.show())
  void window.loadURL(rendererLocation().url)
  return window
}
