import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { databaseOf } from '../store/raw-database'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const { tempDir, runtime } = importTestbed('retrace-rewritten-')

const ROLLOUT = 'sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'
const FIXTURE = join(FIXTURES, 'codex/codemie', ROLLOUT)

function transcript(rt: Runtime): string[] {
  return (databaseOf(rt.store).prepare('SELECT role, content FROM messages ORDER BY session_id, seq').all() as { role: string; content: string }[]).map((m) => `${m.role} ${m.content}`)
}

async function cliImport(env: NodeJS.ProcessEnv, dataDir: string): Promise<{ sessions: number; skipped: unknown[] }> {
  const { runCli } = await import('../cli/main')
  const out: string[] = []
  expect(await runCli(['import', '--all', '--json', '--data-dir', dataDir], { out: (text) => out.push(text), err: () => undefined }, env)).toBe(0)
  return JSON.parse(out.join('\n')) as never
}

describe('a history rewritten in place', () => {
  // An agent that takes turns back by cutting its file short and writing on (Copilot CLI's
  // /rewind) keeps the file's inode and first bytes; once it has grown past what was read, its
  // size says nothing either. Only the bytes before the old offset tell.
  it('is read again from the start when what lay before the offset changed, even once it is longer', async () => {
    const codex = join(tempDir(), 'codex')
    const path = join(codex, ROLLOUT)
    mkdirSync(dirname(path), { recursive: true })
    const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter((line) => line !== '')
    writeFileSync(path, lines.map((line) => `${line}\n`).join(''))
    const env = { HOME: '/nonexistent', CLAUDE_CONFIG_DIR: '/nonexistent', CODEX_HOME: codex }
    const dataDir = join(tempDir(), 'data')
    expect((await cliImport(env, dataDir)).sessions).toBe(1)

    // The later half replaced by lines of other bytes (a field added), in the same file.
    const inode = statSync(path).ino
    const kept = Math.floor(lines.length / 2)
    const rewritten = [...lines.slice(0, kept), ...lines.slice(kept).map((line) => JSON.stringify({ ...(JSON.parse(line) as object), rewritten: true }))]
    writeFileSync(path, rewritten.map((line) => `${line}\n`).join(''))
    expect(statSync(path).ino).toBe(inode)
    expect(statSync(path).size).toBeGreaterThan(Buffer.byteLength(lines.map((line) => `${line}\n`).join('')))

    const again = await cliImport(env, dataDir)
    expect(again.skipped).toEqual([])
    const clean = runtime({ codex })
    await clean.imports.importAll()
    expect(transcript(runtime({}, { dataDir }))).toEqual(transcript(clean))
  })
})
