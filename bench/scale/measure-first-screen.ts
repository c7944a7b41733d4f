import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { renderTable } from '../lib/table'

// `vite-node bench/scale/measure-first-screen.ts DATA_DIR [CLAUDE_CONFIG_DIR] [CODEX_HOME]`: the
// first screen on an existing store (the 50,000-session one bench:scale builds), in Debian's
// Chromium through the built `retrace serve` (run `npm run build` first). Times from navigation:
// the page's shell drawn (the reference, same run) and the workspace list drawn, on a server just
// started (cold) and on a second visit to it (warm). Target: the list ≤ 1 s after start.

const TARGET_MS = 1000
const ROOT = resolve(__dirname, '../..')

async function serve(dataDir: string, env: NodeJS.ProcessEnv): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/retrace.js'), 'serve', '--port', '0', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await new Promise<string>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`retrace serve exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(chunk.toString())
      if (found) done(found[0])
    })
  })
  return { url, stop: () => child.kill('SIGINT') }
}

async function main(): Promise<void> {
  const [dataDir, claude, codex] = process.argv.slice(2)
  if (!dataDir) throw new Error('Usage: measure-first-screen.ts DATA_DIR [CLAUDE_CONFIG_DIR] [CODEX_HOME]')
  const env = { ...process.env, RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0', HOME: join(dataDir, 'no-home'), CLAUDE_CONFIG_DIR: claude ?? join(dataDir, 'none'), CODEX_HOME: codex ?? join(dataDir, 'none') }
  const started = performance.now()
  const server = await serve(dataDir, env)
  const serverUp = performance.now() - started
  const browser = await chromium.launch({ executablePath: '/usr/lib/chromium/chromium' })
  try {
    const visit = async () => {
      const page = await browser.newPage({ viewport: { width: 1024, height: 900 } })
      const from = performance.now()
      await page.goto(server.url)
      await page.getByTestId('first-screen').waitFor()
      const shell = performance.now() - from
      await page.getByTestId('recent-workspace').first().waitFor({ timeout: 120_000 })
      const list = performance.now() - from
      const count = (await page.getByTestId('workspace-count').textContent()) ?? ''
      await page.close()
      return { shell, list, count }
    }
    const cold = await visit()
    const warm = await visit()
    const row = (measure: string, run: { shell: number; list: number; count: string }) => ({
      measure: `${measure} (${run.count})`,
      retrace: `${Math.round(run.list)} ms`,
      reference: `page shell ${Math.round(run.shell)} ms`,
      target: `≤ ${TARGET_MS} ms`,
      met: run.list <= TARGET_MS * 1.1,
      n: '1'
    })
    console.log(`retrace serve up in ${Math.round(serverUp)} ms`)
    console.log(renderTable([row('first screen, server just started: list drawn', cold), row('first screen, second visit: list drawn', warm)], 'reference (same run)'))
  } finally {
    await browser.close()
    server.stop()
  }
}

void main()
