import { expect, snapshot, test } from '../support/fixtures'
import { FirstScreen } from '../pages/first-screen'

test.describe('bad input in the browser', () => {
  test('opening a folder that does not exist names the path and keeps the user on the first screen', async ({ page, server }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openPath('/no/such/folder/anywhere')
    await expect(first.openError).toContainText('/no/such/folder/anywhere')
    await expect(first.root).toBeVisible()
    await snapshot(page, testInfo, '07-open-error')
  })

  test('a page opened without the token explains how to get in, and the API refuses it', async ({ page, server }, testInfo) => {
    await page.goto(server.origin + '/')
    await expect(page.getByTestId('error-state')).toContainText(/token/i)
    await snapshot(page, testInfo, '08-missing-token')
    const refused = await page.evaluate(async () => {
      const response = await fetch('/api/rpc/workspaces.listRecent', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })
      return { status: response.status, body: (await response.json()) as { error?: { code?: string } } }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error?.code).toBe('UNAUTHORIZED')
  })
})
