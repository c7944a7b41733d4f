import { expect, test } from '../support/fixtures'
import { startRetraceServer } from '../support/retrace-server'

test('the window follows the system theme as it changes, until the user picks one', async ({ page, consoleErrors }) => {
  const server = await startRetraceServer(['--demo'])
  try {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(server.url)
    const root = page.locator('html')
    await expect(root).toHaveAttribute('data-theme', 'light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect(root).toHaveAttribute('data-theme', 'dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect(root).toHaveAttribute('data-theme', 'light')

    // A choice made with the toggle stays, whatever the system does next.
    await page.getByTestId('theme-toggle').click()
    await expect(root).toHaveAttribute('data-theme', 'dark')
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.emulateMedia({ colorScheme: 'light' })
    await expect(root).toHaveAttribute('data-theme', 'dark')
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
  }
})
