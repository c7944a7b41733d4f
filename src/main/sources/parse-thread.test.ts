import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Runtime } from '../runtime'
import { encodeProjectFolder } from './claude-code/project-folder'
import { ParseThread } from './parse-thread/parse-thread'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'

const CWD = '/home/USER/projects/spotter-worktrees/spotter-4te'
const SESSION = 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'
const { tempDir, runtime } = importTestbed('retrace-parse-thread-')

/** A real 1 MB Claude Code session (spotter, 2.1.39), as `copies` sessions of their own, and `extra` lines after it. */
function writeSessions(root: string, copies: number, extra: (text: string) => string = (text) => text): string[] {
  const text = readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SESSION}.jsonl`), 'utf8')
  const folder = join(root, 'projects', encodeProjectFolder(CWD))
  mkdirSync(folder, { recursive: true })
  return Array.from({ length: copies }, (_, copy) => {
    const id = `${SESSION.slice(0, -2)}${String(copy).padStart(2, '0')}`
    const path = join(folder, `${id}.jsonl`)
    writeFileSync(path, extra(text.replaceAll(SESSION, id)))
    return path
  })
}

/** Every session's transcript, as the window would show it, by its source's id. */
function transcripts(rt: Runtime): Record<string, unknown[]> {
  const rows = rt.store.db
    .prepare(
      `SELECT s.source_session_id AS session, m.seq, m.turn, m.role, m.content, m.tool_name AS toolName, m.tool_input AS toolInput, m.created_at AS createdAt
       FROM messages m JOIN sessions s ON s.id = m.session_id ORDER BY s.source_session_id, m.seq`
    )
    .all() as { session: string }[]
  const bySession: Record<string, unknown[]> = {}
  for (const { session, ...message } of rows) (bySession[session] ??= []).push(message)
  return bySession
}

describe('parsing a large import on a thread of its own', () => {
  it('writes what parsing on the main thread writes, message for message', async () => {
    const root = join(tempDir(), 'claude')
    const paths = writeSessions(root, 6)
    const started = ParseThread.counts.started
    const threaded = runtime({ claude: root })
    const report = await threaded.imports.importAll()
    expect(ParseThread.counts.started, 'a thread was started for 6 MB').toBeGreaterThan(started)
    expect(report).toMatchObject({ files: 6, sessions: 6, skipped: [] })

    // The same files, each imported alone: 1 MB each, parsed on the main thread.
    const inline = runtime({ claude: join(tempDir(), 'claude') })
    const inlineRoot = inline.imports.environment.CLAUDE_CONFIG_DIR ?? ''
    const folder = join(inlineRoot, 'projects', encodeProjectFolder(CWD))
    mkdirSync(folder, { recursive: true })
    const threadsBefore = ParseThread.counts.started
    for (const path of paths) {
      writeFileSync(join(folder, path.split('/').at(-1) ?? ''), readFileSync(path))
      await inline.imports.importAll()
    }
    expect(ParseThread.counts.started).toBe(threadsBefore)
    const expected = transcripts(inline)
    expect(Object.keys(expected)).toHaveLength(6)
    expect(transcripts(threaded)).toEqual(expected)
  })

  it('parses on the main thread what a stopped thread left, from where it stopped', async () => {
    // Tool results of 3 MB after each session: more than a thread with a heap of 8 MB can parse.
    const result = JSON.parse(readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SESSION}.jsonl`), 'utf8').split('\n')[24] ?? '') as {
      uuid: string
      message: { content: { content: string }[] }
      toolUseResult: { stdout: string }
    }
    const output = 'lib/spotter/telemetry/otel.ex\n'.repeat(100_000)
    const large = (id: number) => JSON.stringify({ ...result, uuid: `large-${id}`, message: { ...result.message, content: [{ ...result.message.content[0], content: output }] }, toolUseResult: { ...result.toolUseResult, stdout: output } })
    const root = join(tempDir(), 'claude')
    writeSessions(root, 5, (text) => `${text}${large(1)}\n${large(2)}\n`)
    const stopped = ParseThread.counts.stopped
    const small = runtime({ claude: root }, { env: { RETRACE_IMPORT_PARSE_HEAP_MB: '8' } })
    const report = await small.imports.importAll()
    expect(ParseThread.counts.stopped, 'the thread ran out of memory').toBeGreaterThan(stopped)
    expect(report).toMatchObject({ files: 5, sessions: 5, skipped: [] })

    const roomy = runtime({ claude: root })
    await roomy.imports.importAll()
    expect(transcripts(small)).toEqual(transcripts(roomy))
  }, 60_000)
})
