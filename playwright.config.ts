import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from './e2e/support/chromium'

// End-to-end tests drive the built renderer in Debian's Chromium against `retrace serve`
// (the web binding); the Electron spec runs only where the Electron binary exists.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['./e2e/support/skip-reporter.ts']],
  use: {
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure'
  },
  projects: [
    { name: 'web', testDir: 'e2e/web' },
    { name: 'cli', testDir: 'e2e/cli' },
    // Exported pages opened from disk (no server).
    { name: 'export', testDir: 'e2e/export' },
    { name: 'electron', testDir: 'e2e/electron' }
  ]
})
