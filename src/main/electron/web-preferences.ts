import { join } from 'node:path'

/**
 * The main window's webPreferences: every item of the Electron security checklist. Kept free
 * of electron imports so a plain-Node test can assert it.
 */
export function mainWindowWebPreferences(preloadDir: string) {
  return {
    preload: join(preloadDir, 'index.cjs'),
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false
  } as const
}
