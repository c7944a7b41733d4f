import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { PROJECT_ROOT } from '../support/retrace-server'

/**
 * The Electron binary, if it was downloaded. We read electron's path.txt instead of
 * require('electron'), because requiring it tries to download the binary and throws offline.
 */
function electronBinary(): string | null {
  const pkg = join(PROJECT_ROOT, 'node_modules/electron')
  const pathFile = join(pkg, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

const binary = electronBinary()

test.describe('the desktop window (Electron)', () => {
  test.skip(
    binary === null,
    'Skipped: the Electron binary is not installed (node_modules/electron/dist is missing). It cannot be downloaded on this build machine; run `npm start` (or `npx install-electron`) where downloads work to enable this spec.'
  )

  test('opens securely, shows the demo workspace and reads a transcript', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'retrace-electron-'))
    // No background import of this machine's own agent histories into the test's store.
    const env = { ...process.env, RETRACE_BACKGROUND_IMPORT: '0' } as Record<string, string>
    const app = await electron.launch({ executablePath: binary ?? '', args: [PROJECT_ROOT, '--data-dir', dataDir], cwd: PROJECT_ROOT, env })
    try {
      const window = await app.firstWindow()
      await window.getByTestId('first-screen').waitFor()

      // Sandboxed and isolated: the page sees neither Node nor ipcRenderer, only the typed bridge.
      expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
      expect(await window.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')
      expect(await window.evaluate(() => typeof (window as unknown as { ipcRenderer?: unknown }).ipcRenderer)).toBe('undefined')
      expect(await window.evaluate(() => typeof (window as unknown as { retrace?: Record<string, unknown> }).retrace?.['sessions.list'])).toBe('function')

      await window.getByTestId('open-demo').click()
      await expect(window.getByTestId('session-row')).toHaveCount(6)
      // By its own title: the row after it says "continues “Fix the flaky date test”".
      await window.getByTestId('session-row').filter({ has: window.locator('.session-title', { hasText: 'Fix the flaky date test' }) }).click()
      await expect(window.getByTestId('transcript').getByTestId('message-user').first()).toBeVisible()
      await window.screenshot({ path: join(PROJECT_ROOT, 'e2e/artifacts/electron-transcript.png') })
    } finally {
      await app.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
