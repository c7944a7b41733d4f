import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/fixtures'
import { PROJECT_ROOT } from '../support/retrace-server'
import { FirstScreen } from '../pages/first-screen'
import { WorkspaceView } from '../pages/workspace-view'
import { createFakeSecrets } from '../../src/main/export/redaction/testing/fake-secrets'

const FLAKY_SESSION = 'Fix the flaky date test'
const IMPORTED_TITLE = 'Fix the flaky date test (shared)'

function retrace(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, [join(PROJECT_ROOT, 'bin/retrace.js'), ...args, '--data-dir', dataDir], { env: { ...process.env, RETRACE_HOME: '' }, encoding: 'utf8', stdio: 'pipe' })
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()])
  const path = await file.path()
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') }
}

test.describe('export from the window', () => {
  test('a JSON export with secrets comes back as a session; its export hides the secrets except the one kept; a turn exports alone', async ({ page, server, consoleErrors }, testInfo) => {
    const first = new FirstScreen(page)
    await first.goto(server.url)
    await first.openDemo()
    const workspace = new WorkspaceView(page)
    await expect(workspace.session(FLAKY_SESSION).first()).toBeVisible()

    // A colleague's JSON export of the demo session, in which two secrets were pasted.
    const demo = join(server.dataDir, 'demo-workspace')
    const listed = JSON.parse(retrace(server.dataDir, ['sessions', demo, '--json'])) as { sessions: { id: string; title: string }[] }
    const flakyId = listed.sessions.find((session) => session.title === FLAKY_SESSION)?.id ?? ''
    const exported = join(server.dataDir, 'flaky.json')
    retrace(server.dataDir, ['export', flakyId, '--format', 'json', '--with-files', '--no-redact', '--out', exported])
    const fake = createFakeSecrets(7)
    const awsKeyId = fake.awsAccessKeyId()
    const githubToken = fake.githubToken()
    const file = JSON.parse(readFileSync(exported, 'utf8')) as { document: { session: { title: string }; messages: { role: string; content: string }[] } }
    file.document.session.title = IMPORTED_TITLE
    const prompt = file.document.messages.find((message) => message.role === 'user')
    if (!prompt) throw new Error('the demo session has no prompt')
    prompt.content += `\n\nCI uses AWS_ACCESS_KEY_ID=${awsKeyId} and GITHUB_TOKEN=${githubToken}`
    writeFileSync(exported, JSON.stringify(file))
    // Open it in the window: a new session of source retrace-export, selected, ready to replay.
    await page.getByTestId('open-export-input').setInputFiles(exported)
    await expect(page.getByTestId('open-export-status')).toContainText(`Opened “${IMPORTED_TITLE}”`)
    await expect(workspace.session(IMPORTED_TITLE)).toHaveAttribute('aria-selected', 'true')
    const replay = page.getByTestId('replay')
    await expect(replay).toHaveAttribute('data-revealed', '0')
    await page.getByTestId('replay-speed').selectOption('8')
    await page.getByTestId('replay-jump').selectOption('2')
    // Turn 2's files came with the export: they show beside the replay, diff and all.
    await expect(page.getByTestId('replay-files').locator('[data-testid="replay-file"][data-path="src/dates.ts"]')).toBeVisible()
    await snapshot(page, testInfo, '69-export-opened-replay')
    await page.getByTestId('replay-exit').click()

    // Export the whole session: the review lists both secrets; keep the GitHub one (say it is revoked).
    await (await workspace.sessionAction('export-open')).click()
    const dialog = page.getByTestId('export-dialog')
    const review = dialog.getByTestId('export-review')
    await expect(review).toHaveAttribute('data-findings', '2')
    const findings = review.getByTestId('export-finding')
    await expect(findings.filter({ hasText: 'turn 1' })).toHaveCount(2)
    // Masked: the review never shows a whole secret.
    await expect(dialog).not.toContainText(awsKeyId)
    await expect(dialog).not.toContainText(githubToken)
    await review.locator('[data-testid="export-finding"][data-rule*="github"]').getByRole('checkbox').check()
    await expect(dialog.getByTestId('export-submit')).toHaveText('Export, hiding 1 secret')
    await snapshot(page, testInfo, '70-export-review')
    const html = await download(page, () => dialog.getByTestId('export-submit').click())
    expect(html.name).toMatch(/\.html$/)
    expect(html.text).toContain('Content-Security-Policy')
    expect(html.text).not.toContain(awsKeyId)
    expect(html.text).toContain('[REDACTED: ')
    expect(html.text).toContain(githubToken)
    await expect(dialog.getByTestId('export-result')).toContainText('1 secret hidden')
    await dialog.getByRole('button', { name: 'Done' }).click()

    // A turn's export: Markdown of the conversation up to the end of turn 1, redacted.
    const turnOne = workspace.transcript.locator('[data-testid="turn-header"][data-turn="1"]')
    await turnOne.getByTestId('turn-export').click()
    await expect(dialog.getByRole('heading', { name: 'Export up to turn 1' })).toBeVisible()
    await dialog.getByTestId('export-format-md').check()
    await expect(dialog.getByTestId('export-review')).toHaveAttribute('data-findings', '2')
    const md = await download(page, () => dialog.getByTestId('export-submit').click())
    expect(md.name).toMatch(/\.md$/)
    expect(md.text).not.toContain(awsKeyId)
    expect(md.text).not.toContain(githubToken)
    expect(md.text).toMatch(/Turn 1/)
    expect(md.text).not.toMatch(/Turn 2/)
    await snapshot(page, testInfo, '71-export-turn-done')
    expect(consoleErrors).toEqual([])
  })
})
