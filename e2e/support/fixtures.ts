import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { test as base, expect, type Page, type TestInfo } from '@playwright/test'
import { PROJECT_ROOT, startRetraceServer, type RunningServer } from './retrace-server'

interface Fixtures {
  /** `retrace serve --demo` on a fresh data folder, per test. */
  server: RunningServer
  /** Messages the page logged as errors (CSP violations included); asserted empty after each test. */
  consoleErrors: string[]
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  server: async ({}, use) => {
    const server = await startRetraceServer()
    await use(server)
    await server.stop()
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await use(errors)
  }
})
export { expect }

/**
 * Save a screenshot as a test artifact (attached to the report) and under e2e/artifacts so a
 * person can look at what the test saw.
 */
export async function snapshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const dir = join(PROJECT_ROOT, 'e2e/artifacts')
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${name}.png`)
  await page.screenshot({ path, fullPage: false })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}
