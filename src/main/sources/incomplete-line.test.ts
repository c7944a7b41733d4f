import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ImportStatus } from '../../shared/contract'
import type { Runtime } from '../runtime/runtime'
import { encodeProjectFolder } from './claude-code/project-folder'
import { FIXTURES } from './testing/claude-home'
import { contractCaller, importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime } = importTestbed('retrace-incomplete-line-')

const CLAUDE_SESSION = '4c2ddfdc-b619-4525-8d03-1950fb1b0257'
const CODEX_ROLLOUT = 'sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'

/** A real history file and where it goes under its agent's folder. */
const SOURCES = {
  'claude-code': { fixture: join(FIXTURES, 'claude-code/codemie/-tmp-private', `${CLAUDE_SESSION}.jsonl`), home: 'claude', cwd: '/tmp/private', file: (cwd: string) => join('projects', encodeProjectFolder(cwd), `${CLAUDE_SESSION}.jsonl`) },
  codex: { fixture: join(FIXTURES, 'codex/codemie', CODEX_ROLLOUT), home: 'codex', cwd: null, file: () => CODEX_ROLLOUT }
} as const

interface History {
  root: string
  path: string
  env: NodeJS.ProcessEnv
}

/** The fixture's history in a fresh agent folder (Claude Code: recorded in `cwd`), whole or up to `bytes`. */
function writeHistory(source: keyof typeof SOURCES, text: Buffer, cwd?: string): History {
  const { home, file } = SOURCES[source]
  const root = join(tempDir(), home)
  const path = join(root, file(cwd ?? SOURCES[source].cwd ?? ''))
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: source === 'claude-code' ? root : '/nonexistent', CODEX_HOME: source === 'codex' ? root : '/nonexistent' }
  return { root, path, env }
}

function fixtureText(source: keyof typeof SOURCES, cwd?: string): string {
  const text = readFileSync(SOURCES[source].fixture, 'utf8')
  if (!cwd) return text
  const recorded = SOURCES[source].cwd ?? ''
  return text
    .split('\n')
    .map((line) => (line ? JSON.stringify({ ...(JSON.parse(line) as object), ...(line.includes(`"cwd":"${recorded}"`) ? { cwd } : {}) }) : line))
    .join('\n')
}

/**
 * The fixture cut in the middle of its line `cutLine` (0-based), as an agent that crashed while
 * writing it leaves it; where that line starts, and the bytes that would finish the history.
 */
function cutHistory(source: keyof typeof SOURCES, cutLine: number, cwd?: string): History & { cutAt: number; rest: Buffer } {
  const text = fixtureText(source, cwd)
  const lines = text.split('\n')
  const cutAt = Buffer.byteLength(lines.slice(0, cutLine).map((line) => `${line}\n`).join(''))
  const middle = cutAt + Math.floor(Buffer.byteLength(lines[cutLine] ?? '') / 2)
  const bytes = Buffer.from(text)
  return { ...writeHistory(source, bytes.subarray(0, middle), cwd), cutAt, rest: bytes.subarray(middle) }
}

function transcript(rt: Runtime): string[] {
  return (databaseOf(rt.store).prepare('SELECT role, content FROM messages ORDER BY session_id, seq').all() as { role: string; content: string }[]).map((m) => `${m.role} ${m.content}`)
}

async function cliImport(env: NodeJS.ProcessEnv, dataDir: string): Promise<{ messages: number; skipped: { file: string; offset: number; reason: string }[] }> {
  const { runCli } = await import('../cli/main')
  const out: string[] = []
  const code = await runCli(['import', '--all', '--json', '--data-dir', dataDir], { out: (text) => out.push(text), err: () => undefined }, env)
  expect(code).toBe(0)
  return JSON.parse(out.join('\n')) as never
}

describe('a last line left without its end', () => {
  it.each([
    ['claude-code', 21],
    ['codex', 11]
  ] as const)('is reported once by `retrace import` with its file and offset, and imported when it is completed (%s)', async (source, cutLine) => {
    const { path, cutAt, rest, env } = cutHistory(source, cutLine)
    const dataDir = join(tempDir(), 'data')

    const first = await cliImport(env, dataDir)
    expect(first.skipped).toEqual([{ file: path, offset: cutAt, reason: expect.stringMatching(/^last line incomplete \(\d+ bytes with no end of line\)/) as string }])
    expect(first.messages).toBeGreaterThan(0) // the lines before it
    expect((await cliImport(env, dataDir)).skipped).toEqual([]) // once

    // The agent was only slow: the line and the rest of the history arrive.
    appendFileSync(path, rest)
    const completed = await cliImport(env, dataDir)
    expect(completed.skipped).toEqual([])
    expect(completed.messages).toBeGreaterThan(0)
    const whole = writeHistory(source, readFileSync(SOURCES[source].fixture))
    const clean = runtime(source === 'codex' ? { codex: whole.root } : { claude: whole.root })
    await clean.imports.importAll()
    expect(transcript(runtime({}, { dataDir }))).toEqual(transcript(clean))
  })

  it('is reported by live following once the file has been quiet for a while, not while it grows', async () => {
    const workspace = tempDir()
    const { root, path, cutAt, rest } = cutHistory('claude-code', 21, workspace)
    const quietMs = 1000
    const live = runtime({ claude: root }, { followImports: true, env: { RETRACE_INCOMPLETE_LINE_AFTER_MS: String(quietMs) } })
    const call = contractCaller(live)
    const { id: workspaceId } = await call('workspaces.open', { path: workspace })
    const status = () => call('imports.status', { workspaceId })
    const incomplete = (s: ImportStatus) => (s.report?.skipped ?? []).filter((line) => line.reason.startsWith('last line incomplete'))
    await until(async () => ((await status()).report?.messages ?? 0) > 0)
    const skippedBefore = (await status()).skippedTotal // the fixture's own (edits outside the workspace)

    // The agent goes on writing the line, slowly: nothing is reported while the file grows.
    const piece = Math.floor(rest.indexOf('\n') / 2)
    for (let step = 0; step < 4; step++) {
      appendFileSync(path, rest.subarray(Math.floor((step * piece) / 4), Math.floor(((step + 1) * piece) / 4)))
      await new Promise((resolve) => setTimeout(resolve, quietMs / 2))
      expect(incomplete(await status())).toEqual([])
    }
    // Then it stops: reported once, where the line starts.
    await until(async () => incomplete(await status()).length > 0, quietMs * 4)
    await new Promise((resolve) => setTimeout(resolve, quietMs * 2))
    const reported = await status()
    expect(incomplete(reported)).toEqual([{ file: path, offset: cutAt, reason: expect.stringContaining('with no end of line') as string }])
    expect(reported.skippedTotal).toBe(skippedBefore + 1)

    // It was finished after all: imported like any other line.
    const before = reported.report?.messages ?? 0
    appendFileSync(path, rest.subarray(piece))
    await until(async () => ((await status()).report?.messages ?? 0) > before)
    await new Promise((resolve) => setTimeout(resolve, quietMs * 2))
    expect(incomplete(await status())).toHaveLength(1)
  }, 30_000)
})

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const start = Date.now()
  while (!(await condition())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
