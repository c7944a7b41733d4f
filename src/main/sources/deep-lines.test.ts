import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime/runtime'
import { encodeProjectFolder } from './claude-code/project-folder'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { databaseOf } from '../store/raw-database'

const { tempDir, runtime } = importTestbed()

const CLAUDE_SESSION = '4c2ddfdc-b619-4525-8d03-1950fb1b0257'
const CLAUDE_FIXTURE = join(FIXTURES, 'claude-code/codemie/-tmp-private', `${CLAUDE_SESSION}.jsonl`)
const CODEX_NAME = 'rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'
const CODEX_FIXTURE = join(FIXTURES, 'codex/codemie/sessions/2026/01/02', CODEX_NAME)

const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

/** A real file's lines with others put in after line `after` (1-based), and where each inserted one starts. */
function withLinesInserted(lines: string[], after: number, inserted: string[]): { text: string; offsets: number[] } {
  const before = lines.slice(0, after)
  let offset = Buffer.byteLength(before.map((line) => `${line}\n`).join(''))
  const offsets = inserted.map((line) => {
    const at = offset
    offset += Buffer.byteLength(`${line}\n`)
    return at
  })
  return { text: [...before, ...inserted, ...lines.slice(after)].map((line) => `${line}\n`).join(''), offsets }
}

function fixtureLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean)
}

/** What the user sees of a file's sessions: every message's role, tool and text, in order. */
function transcript(rt: Runtime): string[] {
  return (databaseOf(rt.store).prepare('SELECT role, tool_name, content FROM messages ORDER BY session_id, seq').all() as { role: string; tool_name: string | null; content: string }[]).map(
    (m) => `${m.role} ${m.tool_name ?? ''} ${m.content}`
  )
}

function claudeHomeWith(text: string): string {
  const root = join(tempDir(), 'claude')
  const folder = join(root, 'projects', encodeProjectFolder('/tmp/private'))
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, `${CLAUDE_SESSION}.jsonl`), text)
  return root
}

function codexHomeWith(text: string): string {
  const root = join(tempDir(), 'codex')
  const folder = join(root, 'sessions/2026/01/02')
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, CODEX_NAME), text)
  return root
}

describe('a line nested thousands of levels deep', () => {
  it('is skipped in a Claude Code session with its offset and reason; every other line imports, now and on each re-import', async () => {
    const lines = fixtureLines(CLAUDE_FIXTURE)
    // A real Write call (line 4) whose input is nested 3,000 levels deep, a bare array 4,000
    // deep, and a real tool result (line 8) whose toolUseResult is.
    const writeCall = JSON.parse(lines[3] ?? '') as { uuid: string; message: { content: { input: unknown }[] } }
    const deepCall = JSON.stringify({ ...writeCall, uuid: 'deep-call' }).replace(JSON.stringify(writeCall.message.content[0]?.input), deepObject(3000))
    const result = JSON.parse(lines[7] ?? '') as Record<string, unknown>
    const deepResult = JSON.stringify({ ...result, uuid: 'deep-result', toolUseResult: 0 }).replace('"toolUseResult":0', `"toolUseResult":${deepObject(2500)}`)
    const { text, offsets } = withLinesInserted(lines, 8, [deepCall, deepArray(4000), deepResult])

    const clean = runtime({ claude: claudeHomeWith(lines.map((line) => `${line}\n`).join('')) })
    await clean.imports.importAll()
    const home = claudeHomeWith(text)
    const rt = runtime({ claude: home })
    const report = await rt.imports.importAll()

    expect(report.skipped.filter((line) => line.reason.startsWith('file not imported'))).toEqual([])
    for (const offset of offsets) {
      expect(report.skipped.find((line) => line.offset === offset)?.reason).toMatch(/nested more than 128 levels deep/)
    }
    expect(transcript(rt)).toEqual(transcript(clean)) // the lines after the deep ones too

    // A re-import goes past them, and so do lines the agent adds later.
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, skipped: [] })
    const last = JSON.parse(lines.at(-1) ?? '') as Record<string, unknown>
    appendFileSync(join(home, 'projects', encodeProjectFolder('/tmp/private'), `${CLAUDE_SESSION}.jsonl`), `${JSON.stringify({ ...last, uuid: 'later', parentUuid: last.uuid, type: 'user', message: { role: 'user', content: 'one more thing' } })}\n`)
    expect(await rt.imports.importAll()).toMatchObject({ files: 1, messages: 1, skipped: [] })
  })

  it('is skipped in a Codex rollout, and arguments encoded as deep JSON text are kept as text', async () => {
    const lines = fixtureLines(CODEX_FIXTURE)
    const call = JSON.parse(lines[9] ?? '') as { payload: Record<string, unknown> }
    const deepCall = JSON.stringify({ ...call, payload: { ...call.payload, call_id: 'call_deep', arguments: 0 } }).replace('"arguments":0', `"arguments":${deepObject(3000)}`)
    const textCall = JSON.stringify({ ...call, payload: { ...call.payload, call_id: 'call_text', arguments: deepObject(3000) } })
    const { text, offsets } = withLinesInserted(lines, 10, [deepCall, deepArray(4000), textCall])

    const clean = runtime({ codex: codexHomeWith(lines.map((line) => `${line}\n`).join('')) })
    await clean.imports.importAll()
    const rt = runtime({ codex: codexHomeWith(text) })
    const report = await rt.imports.importAll()

    expect(report.skipped.filter((line) => line.reason.startsWith('file not imported'))).toEqual([])
    for (const offset of offsets.slice(0, 2)) {
      expect(report.skipped.find((line) => line.offset === offset)?.reason).toMatch(/nested more than 128 levels deep/)
    }
    const kept = databaseOf(rt.store).prepare("SELECT tool_input FROM messages WHERE tool_call_id = 'call_text' AND role = 'tool_call'").get() as { tool_input: string }
    expect(JSON.parse(kept.tool_input)).toBe(deepObject(3000))
    expect(transcript(rt).filter((line) => !line.includes('{"a":'))).toEqual(transcript(clean))
    expect(await rt.imports.importAll()).toMatchObject({ files: 0, skipped: [] })
  })
})
