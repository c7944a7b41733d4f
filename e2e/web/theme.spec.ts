import { expect, snapshot, test } from '../support/fixtures'
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

test('? lists the keyboard shortcuts, and not while typing', async ({ page, consoleErrors }, testInfo) => {
  const server = await startRetraceServer(['--demo'])
  try {
    await page.goto(server.url)
    await page.getByTestId('first-screen').waitFor()
    const search = page.getByPlaceholder(/Search messages/)
    if (await search.count()) {
      await search.click()
      await page.keyboard.type('?')
      await expect(page.getByTestId('shortcuts-help')).toHaveCount(0)
      await search.blur()
    }
    await page.locator('body').press('?')
    const help = page.getByTestId('shortcuts-help')
    await expect(help).toBeVisible()
    await expect(help).toContainText('Next / previous turn')
    await expect(help.locator('kbd')).toHaveCount(9)
    await snapshot(page, testInfo, '90-shortcuts-help')
    await help.getByRole('button', { name: 'Close' }).click()
    await expect(help).toHaveCount(0)
    expect(consoleErrors).toEqual([])
  } finally {
    await server.stop()
  }
})
