import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeProjectFolder } from './claude-code/project-folder'
import { ParseThread } from './parse-thread/parse-thread'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { SPOTTER_CWD, SPOTTER_SESSION, transcriptsBySession, writeSpotterCopies } from './testing/session-copies'

const { tempDir, runtime } = importTestbed('retrace-parse-thread-')

describe('parsing a large import on a thread of its own', () => {
  it('writes what parsing on the main thread writes, message for message', async () => {
    const root = join(tempDir(), 'claude')
    const paths = writeSpotterCopies(root, 6)
    const started = ParseThread.counts.started
    const threaded = runtime({ claude: root })
    const report = await threaded.imports.importAll()
    expect(ParseThread.counts.started, 'a thread was started for 6 MB').toBeGreaterThan(started)
    expect(report).toMatchObject({ files: 6, sessions: 6, skipped: [] })

    // The same files, each imported alone: 1 MB each, parsed on the main thread.
    const inline = runtime({ claude: join(tempDir(), 'claude') })
    const inlineRoot = inline.imports.environment.CLAUDE_CONFIG_DIR ?? ''
    const folder = join(inlineRoot, 'projects', encodeProjectFolder(SPOTTER_CWD))
    mkdirSync(folder, { recursive: true })
    const threadsBefore = ParseThread.counts.started
    for (const path of paths) {
      writeFileSync(join(folder, path.split('/').at(-1) ?? ''), readFileSync(path))
      await inline.imports.importAll()
    }
    expect(ParseThread.counts.started).toBe(threadsBefore)
    const expected = transcriptsBySession(inline)
    expect(Object.keys(expected)).toHaveLength(6)
    expect(transcriptsBySession(threaded)).toEqual(expected)
  })

  it('parses on the main thread what a stopped thread left, from where it stopped', async () => {
    // Tool results of 3 MB after each session: more than a thread with a heap of 8 MB can parse.
    const result = JSON.parse(readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SPOTTER_SESSION}.jsonl`), 'utf8').split('\n')[24] ?? '') as {
      uuid: string
      message: { content: { content: string }[] }
      toolUseResult: { stdout: string }
    }
    const output = 'lib/spotter/telemetry/otel.ex\n'.repeat(100_000)
    const large = (id: number) => JSON.stringify({ ...result, uuid: `large-${id}`, message: { ...result.message, content: [{ ...result.message.content[0], content: output }] }, toolUseResult: { ...result.toolUseResult, stdout: output } })
    const root = join(tempDir(), 'claude')
    writeSpotterCopies(root, 5, (text) => `${text}${large(1)}\n${large(2)}\n`)
    const stopped = ParseThread.counts.stopped
    const small = runtime({ claude: root }, { env: { RETRACE_IMPORT_PARSE_HEAP_MB: '8' } })
    const report = await small.imports.importAll()
    expect(ParseThread.counts.stopped, 'the thread ran out of memory').toBeGreaterThan(stopped)
    expect(report).toMatchObject({ files: 5, sessions: 5, skipped: [] })

    const roomy = runtime({ claude: root })
    await roomy.imports.importAll()
    expect(transcriptsBySession(small)).toEqual(transcriptsBySession(roomy))
  }, 60_000)
})
