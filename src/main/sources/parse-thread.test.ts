import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { encodeProjectFolder } from './claude-code/project-folder'
import { ParseThread } from './parse-thread/parse-thread'
import { FIXTURES } from './testing/claude-home'
import { importTestbed } from './testing/import-testbed'
import { SPOTTER_CWD, SPOTTER_SESSION, transcriptsBySession, writeSpotterCopies } from './testing/session-copies'
import { THREAD_KEPT_FROM_BYTES } from './read-ahead'

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

  it('parses a line costing more than the thread may spend on a thread of its own, and writes what a roomy thread writes', async () => {
    // Tool results of 8 MB after each session: about 40 MB to parse, more than the usual thread's 24 MB.
    const result = JSON.parse(readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SPOTTER_SESSION}.jsonl`), 'utf8').split('\n')[24] ?? '') as {
      uuid: string
      message: { content: { content: string }[] }
      toolUseResult: { stdout: string }
    }
    const output = 'lib/spotter/telemetry/otel.ex\n'.repeat(135_000)
    const large = (id: number) => JSON.stringify({ ...result, uuid: `large-${id}`, message: { ...result.message, content: [{ ...result.message.content[0], content: output }] }, toolUseResult: { ...result.toolUseResult, stdout: output } })
    const root = join(tempDir(), 'claude')
    writeSpotterCopies(root, 3, (text) => `${text}${large(1)}\n${large(2)}\n`)
    const { stopped, largeLine } = { ...ParseThread.counts }
    const usual = runtime({ claude: root })
    const report = await usual.imports.importAll()
    // One per file: the thread of its own reads the rest of its file, the second large line too.
    expect(ParseThread.counts.largeLine - largeLine, 'a thread of its own for each file with large lines').toBe(3)
    expect(ParseThread.counts.stopped, 'no thread ran out of memory').toBe(stopped)
    expect(report).toMatchObject({ files: 3, sessions: 3, skipped: [] })

    const roomy = runtime({ claude: root }, { env: { RETRACE_IMPORT_PARSE_HEAP_MB: '1024' } })
    await roomy.imports.importAll()
    expect(ParseThread.counts.largeLine - largeLine, 'the roomy thread parses them in place').toBe(3)
    expect(transcriptsBySession(usual)).toEqual(transcriptsBySession(roomy))
  }, 120_000)

  it('parses a smaller workspace of `import --all` on the thread a larger one before it started', async () => {
    const root = join(tempDir(), 'claude')
    writeSpotterCopies(root, 6) // 6 MB in the spotter folder, imported first (sorted by folder)
    // One more session (1 MB, under the 4 MB a thread starts for) recorded in a folder sorting after it.
    const laterCwd = `${SPOTTER_CWD}-later`
    const laterSession = `${SPOTTER_SESSION.slice(0, -2)}99`
    const folder = join(root, 'projects', encodeProjectFolder(laterCwd))
    mkdirSync(folder, { recursive: true })
    const text = readFileSync(join(FIXTURES, `claude-code/spotter/projects-dir/${SPOTTER_SESSION}.jsonl`), 'utf8').replaceAll(SPOTTER_SESSION, laterSession).replaceAll(SPOTTER_CWD, laterCwd)
    expect(Buffer.byteLength(text)).toBeGreaterThan(THREAD_KEPT_FROM_BYTES)
    writeFileSync(join(folder, `${laterSession}.jsonl`), text)
    const jobs = ParseThread.counts.jobs
    const rt = runtime({ claude: root })
    const report = await rt.imports.importAll()
    expect(report).toMatchObject({ files: 7, sessions: 7, skipped: [] })
    expect(report.workspaces.map((workspace) => workspace.path)).toEqual([SPOTTER_CWD, laterCwd])
    expect(ParseThread.counts.jobs - jobs, 'every file, the later workspace\'s too, parsed on the thread').toBe(7)
    expect(Object.keys(transcriptsBySession(rt))).toContain(laterSession)
  }, 60_000)
})
