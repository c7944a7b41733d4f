import { app, session, shell, type WebContents } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../web/security-headers'

/** Open a link in the user's browser only if it is a well-formed https: URL. */
export function openExternalSafely(url: string): void {
  try {
    if (new URL(url).protocol === 'https:') void shell.openExternal(url)
  } catch {
    // Not a URL: ignore.
  }
}

/**
 * App-wide hardening from the Electron security checklist: no navigation away from the app,
 * no new windows, no webviews, no downloads but the window's own exports, every permission
 * request denied, and the CSP sent as a header as well as in index.html.
 */
export function hardenApp(): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event) => event.preventDefault())
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      openExternalSafely(url)
      return { action: 'deny' }
    })
  })
  // The only downloads are exports the window made itself (a blob: URL of its own page):
  // Electron then asks where to save with its Save dialog. Anything else is refused.
  session.defaultSession.on('will-download', (event, item) => {
    if (!item.getURL().startsWith('blob:')) {
      event.preventDefault()
      return
    }
    item.setSaveDialogOptions({ title: 'Save the export', defaultPath: item.getFilename() })
  })
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } })
  })
}
