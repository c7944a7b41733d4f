import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { chromium } from '@playwright/test'
import { projectRoot } from '../lib/child'
import type { ResultRow } from '../lib/table'
import { corpusEnv, type ScaleContext } from './context'

const TARGET_MS = 1000
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium'

interface Served {
  url: string
  /** From the spawn to the address printed: Node, the bundle, the store opened, the port bound. */
  upMs: number
  stop: () => Promise<void>
}

async function serve(dataDir: string, env: NodeJS.ProcessEnv): Promise<Served> {
  const started = performance.now()
  const child = spawn(process.execPath, [join(projectRoot(), 'bin/retrace.js'), 'serve', '--port', '0', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const url = await new Promise<string>((done, fail) => {
    child.once('exit', (code) => fail(new Error(`retrace serve exited with ${code}`)))
    child.stdout.on('data', (chunk: Buffer) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(chunk.toString())
      if (found) done(found[0])
    })
  })
  return {
    url,
    upMs: performance.now() - started,
    stop: async () => {
      child.kill('SIGINT')
      await exited
    }
  }
}

interface Visit {
  shell: number
  list: number
  count: string
}

/**
 * The first screen on the store in `dataDir`, in Debian's Chromium through the built `retrace
 * serve`, with the agents' folders of `env` (the window's listing refreshes their index behind
 * it). Times from navigation: the page's shell drawn (the reference, same visit) and the
 * workspace list drawn, on a server just started and on a second visit. The server's start-up
 * is printed beside them: together they are the time "after start".
 */
export async function measureFirstScreen(dataDir: string, env: NodeJS.ProcessEnv): Promise<ResultRow[]> {
  const server = await serve(dataDir, { ...env, RETRACE_HOME: '', RETRACE_BACKGROUND_IMPORT: '0' })
  const browser = await chromium.launch({ executablePath: CHROMIUM })
  try {
    const visit = async (): Promise<Visit> => {
      const page = await browser.newPage({ viewport: { width: 1024, height: 900 } })
      const from = performance.now()
      await page.goto(server.url)
      await page.getByTestId('first-screen').waitFor()
      const shell = performance.now() - from
      await page.getByTestId('recent-workspace').first().waitFor({ timeout: 120_000 })
      const list = performance.now() - from
      const count = ((await page.getByTestId('workspace-count').textContent()) ?? '').trim()
      await page.close()
      return { shell, list, count }
    }
    const cold = await visit()
    const warm = await visit()
    const row = (measure: string, run: Visit, startup: string): ResultRow => ({
      measure: `${measure} (${run.count})`,
      retrace: `${Math.round(run.list)} ms`,
      reference: `page shell ${Math.round(run.shell)} ms${startup}`,
      target: `≤ ${TARGET_MS} ms`,
      met: run.list <= TARGET_MS * 1.1,
      n: '1'
    })
    return [
      row('first screen, server just started: navigation → list drawn', cold, `; serve up ${Math.round(server.upMs)} ms before`),
      row('first screen, second visit: navigation → list drawn', warm, '')
    ]
  } finally {
    await browser.close()
    await server.stop()
  }
}

/** bench:scale's measure: the first screen on the store the import filled, the corpus's agents' folders behind it. */
export function measureFirstScreenOnScale(ctx: ScaleContext): Promise<ResultRow[]> {
  return measureFirstScreen(ctx.dataDir, { ...process.env, ...corpusEnv(ctx) })
}
