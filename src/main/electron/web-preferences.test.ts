import { describe, expect, it } from 'vitest'
import { mainWindowWebPreferences } from './web-preferences'

describe('main window webPreferences', () => {
  it('keep the renderer sandboxed and isolated, with web security on', () => {
    expect(mainWindowWebPreferences('/app/out/preload')).toEqual({
      preload: '/app/out/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false
    })
  })
})
