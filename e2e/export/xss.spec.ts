import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { ClaudeHome } from '../../src/main/sources/testing/claude-home'
import { PROJECT_ROOT } from '../support/retrace-server'

// An exported page is opened by whoever receives it, offline, in any browser. The corpus of
// docs/reliability.md ("HTML export safety") goes into every place a session can carry text, the
// session is exported by the built CLI, and the page is opened from disk in Chromium: nothing
// may run, load or connect, and the corpus must read as text.

const BIN = join(PROJECT_ROOT, 'bin/retrace.js')
const SHOTS = '/tmp/export-shots'

const CORPUS = [
  '<script>alert(1)</script>',
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror=alert(1)>',
  '<img src=x onerror="window.__pwned=\'img\'">',
  '</script><script>alert(1)</script>',
  '<!--<script>alert(1)</script>',
  '<a href="javascript:alert(1)">a javascript: link</a>',
  '[a markdown link](javascript:alert(1))',
  '<a href="data:text/html,<script>alert(1)</script>">a data: link</a>',
  '<svg onload=alert(1)>',
  '<svg onload="window.__pwned=\'svg\'">',
  '</style><script>alert(1)</script>',
  '</textarea></title><script>alert(1)</script>',
  '<iframe src="https://example.com/frame"></iframe>',
  '<link rel="stylesheet" href="https://example.com/sheet.css">',
  '<img src="https://example.com/pixel.png">',
  '<meta http-equiv="refresh" content="0;url=https://example.com/">',
  'before\u2028line separator\u2029paragraph separator'
]
/** The corpus as file names: no `/` (it would make folders), so each names one file. */
const FILE_NAMES = ['<img src=x onerror=alert(1)>.md', '<svg onload=alert(1)>.txt', 'javascript:alert(1).html', '<!--<script>alert(1)<!--.js', 'line\u2028separator.txt']

function retrace(args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', env: { ...process.env, RETRACE_HOME: '', ...env } })
  if (result.status !== 0) throw new Error(`retrace ${args.join(' ')} exited ${result.status}:\n${result.stderr}`)
  return { stdout: result.stdout, stderr: result.stderr }
}

function sessionIdOf(workspace: string, dataDir: string, title: RegExp): string {
  const { sessions } = JSON.parse(retrace(['sessions', workspace, '--json', '--data-dir', dataDir]).stdout) as { sessions: { id: string; title: string }[] }
  const found = sessions.find((s) => title.test(s.title))
  if (!found) throw new Error(`no session titled ${String(title)} among ${sessions.map((s) => s.title).join(', ')}`)
  return found.id
}

/** Everything the page asks the network (or the disk) for, besides the page itself; and every dialog. */
async function openExport(page: Page, file: string): Promise<{ requests: string[]; dialogs: string[]; errors: string[] }> {
  const url = `file://${file}`
  const requests: string[] = []
  const dialogs: string[] = []
  const errors: string[] = []
  page.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url())
  })
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(url)
  return { requests, dialogs, errors }
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.screenshot({ path: join(SHOTS, `${name}-${colorScheme}.png`), fullPage: options.fullPage ?? false })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test.describe('an exported HTML page', () => {
  let root: string
  test.beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'retrace-e2e-export-'))
    mkdirSync(SHOTS, { recursive: true })
  })
  test.afterEach(() => rmSync(root, { recursive: true, force: true }))

  test('runs nothing, loads nothing, and shows the XSS corpus as text', async ({ page }) => {
    const workspace = join(root, 'shop')
    mkdirSync(workspace)
    const home = new ClaudeHome(join(root, 'claude'))
    const session = home.session(workspace)
    const text = CORPUS.join('\n')
    session.prompt(`Please render these safely:\n${text}`)
    session.say(`Here they are, as text:\n${text}`)
    // The reply is Markdown: it reads as such, and its links go only to http(s) pages.
    session.say('## What changed\n\n**Escaped** every `<tag>`; see [the guide](https://example.com/guide) and [this](javascript:alert(1)).')
    session.bash(`echo '${CORPUS[0] ?? ''}' && cat ${FILE_NAMES[0] ?? ''}`, text)
    session.tool('Grep', { pattern: CORPUS[2], [CORPUS[9] ?? 'svg']: CORPUS[11] }, { mode: 'content', filenames: [] }, text)
    for (const name of FILE_NAMES) session.write(name, `${text}\n`, null)
    session.edit(FILE_NAMES[1] ?? '', `${text}\n`, CORPUS[0] ?? '', '<b>bold</b><script>alert(2)</script>')
    session.say('Done.')

    const dataDir = join(root, 'data')
    retrace(['import', workspace, '--data-dir', dataDir], { CLAUDE_CONFIG_DIR: home.root, CODEX_HOME: join(root, 'no-codex') })
    const sessionId = sessionIdOf(workspace, dataDir, /Please render these safely/)
    const file = join(root, 'export.html')
    const { stdout } = retrace(['export', sessionId, '--out', file, '--data-dir', dataDir])
    expect(stdout).toMatch(/^Wrote .*export\.html \(.*, 0 secrets hidden\)\.$/m)

    const html = readFileSync(file, 'utf8')
    expect(html).not.toMatch(/<script|<img|<svg|<iframe|<link|<a href="(?!#|https:\/\/example\.com\/guide")/i)
    const { requests, dialogs, errors } = await openExport(page, file)
    // Open every collapsed block, as a reader would, so every piece of text has been laid out.
    await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)))
    await page.waitForTimeout(300)
    expect(dialogs).toEqual([])
    expect(await page.evaluate(() => (window as Window & { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(requests).toEqual([])
    expect(errors).toEqual([])
    const shown = await page.evaluate(() => document.body.innerText)
    for (const item of [...CORPUS, ...FILE_NAMES]) expect(shown, `the page shows ${JSON.stringify(item)} as text`).toContain(item)
    await expect(page.locator('details.file summary code', { hasText: FILE_NAMES[0] ?? '' })).toBeVisible()
    await expect(page.locator('.md h2', { hasText: 'What changed' })).toBeVisible()
    await expect(page.locator('.md strong', { hasText: 'Escaped' })).toBeVisible()
    await expect(page.locator('.md code', { hasText: '<tag>' })).toBeVisible()
    await expect(page.locator('.md a')).toHaveAttribute('href', 'https://example.com/guide')
    expect(shown).toContain('[this](javascript:alert(1))')
    await page.locator('section.turn').first().scrollIntoViewIfNeeded()
    await shoot(page, 'xss-corpus')
  })

  test('reads as a calm document in light, dark and print', async ({ page }) => {
    const dataDir = join(root, 'data')
    await createDemo(dataDir)
    const workspace = join(dataDir, 'demo-workspace')
    const sessionId = sessionIdOf(workspace, dataDir, /flaky date test/)
    const file = join(root, 'demo.html')
    retrace(['export', sessionId, '--out', file, '--data-dir', dataDir])
    const { requests, dialogs, errors } = await openExport(page, file)
    await page.setViewportSize({ width: 1100, height: 1300 })
    await shoot(page, 'demo-top')
    // A turn with its tool calls and diffs opened.
    const turn = page.locator('section.turn', { has: page.locator('details.file') }).first()
    await turn.locator('details').evaluateAll((all) => all.forEach((details) => ((details as HTMLDetailsElement).open = true)))
    await turn.evaluate((element) => element.scrollIntoView({ block: 'start' }))
    await shoot(page, 'demo-turn')
    await turn.locator('.files').evaluate((element) => element.scrollIntoView({ block: 'start' }))
    await shoot(page, 'demo-files')
    // Printing shows what is collapsed on screen, without backgrounds.
    await page.reload()
    await page.emulateMedia({ media: 'print', colorScheme: 'light' })
    const hiddenOnScreen = page.locator('details.m.tool:not([open]) .body').first()
    expect((await hiddenOnScreen.boundingBox())?.height ?? 0).toBeGreaterThan(0)
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.m.user') ?? document.body).backgroundColor)).toBe('rgb(255, 255, 255)')
    await page.screenshot({ path: join(SHOTS, 'demo-print.png'), fullPage: true })
    expect(requests).toEqual([])
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
  })
})

/** `retrace serve --demo` creates the demo workspace; stop it once it says it is serving. */
async function createDemo(dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'serve', '--demo', '--port', '0', '--data-dir', dataDir], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, RETRACE_HOME: '', CLAUDE_CONFIG_DIR: join(dataDir, 'no-claude'), CODEX_HOME: join(dataDir, 'no-codex') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`retrace serve --demo printed no URL within 30 s:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Retrace is serving')) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGINT')
  await exited
}
