import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { applyPatch } from 'diff'
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { createDispatcher } from '../rpc/dispatcher'
import { changesCommand, diffCommand } from '../cli/journal-commands'
import { databaseOf } from '../store/raw-database'
import { ExportService } from '../export/export-service'

/** A text of `count` lines, each naming `word`: two such texts share no line at all. */
const lines = (word: string, count: number) => Array.from({ length: count }, (_, i) => `${word} line ${i}`).join('\n') + '\n'

/**
 * R27: the audit's worst case. Before the bound, diffing 38,000 lines that all changed ran jsdiff
 * for over ten minutes on the thread that answers requests; these tests then never end (the
 * vitest timeout cannot even fire: that thread is the one blocked).
 */
describe('a diff past the bounds (R27)', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup(count: number) {
    ws = agentWorkspace({ 'big.txt': lines('old', count) })
    ws.agent.turn('rewrite every line')
    ws.agent.write('big.txt', lines('new', count))
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    const call = async <K extends MethodName>(method: K, input: MethodInput<K>): Promise<MethodOutput<K>> => {
      const result = await dispatch(method, input, null)
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code })
      return result.data as MethodOutput<K>
    }
    return { call, pathId: Buffer.from('big.txt').toString('base64') }
  }

  it('answers a file whose 38,000 lines all changed with "too many changes" and the two versions side by side', { timeout: 60_000 }, async () => {
    const { call, pathId } = setup(38_000)
    const diff = await call('files.diff', { sessionId: ws.writer.id, pathId, fromTurn: 1, toTurn: 2 })
    expect(diff).toMatchObject({ tooManyChanges: true, tooLarge: false, binary: false, added: 0, removed: 0 })
    expect(diff.before?.size).toBe(lines('old', 38_000).length)
    expect(diff.patch.startsWith('@@ -1,38000 +1,38000 @@\n-old line 0\n')).toBe(true)
    // The side-by-side patch is a true one: applied to the old text it gives the new text.
    expect(applyPatch(lines('old', 38_000), diff.patch)).toBe(lines('new', 38_000))
  })

  it('keeps answering other requests while a worst-case diff is computed', { timeout: 60_000 }, async () => {
    const { call, pathId } = setup(38_000)
    const finished: string[] = []
    const diff = call('files.diff', { sessionId: ws.writer.id, pathId, fromTurn: 1, toTurn: 2 }).then(() => finished.push('files.diff'))
    // Let the diff start before the other request is sent.
    await new Promise((resolve) => setImmediate(resolve))
    const info = call('app.info', {}).then(() => finished.push('app.info'))
    await Promise.all([diff, info])
    expect(finished).toEqual(['app.info', 'files.diff'])
  })

  it('says so in `retrace diff` and `retrace changes`: sizes, hashes, the words, then the two versions', { timeout: 60_000 }, async () => {
    const { call } = setup(38_000)
    const printed: string[] = []
    const io = { out: (text: string) => printed.push(text), err: (text: string) => printed.push(text) }
    await changesCommand(call, { sessionId: ws.writer.id, turn: 1, json: false, io })
    expect(printed.join('\n')).toMatch(/modify\s+big\.txt\s+too many changes to diff by line/)
    printed.length = 0
    await diffCommand(call, { sessionId: ws.writer.id, turn: 1, file: 'big.txt', io })
    const [first, ...rest] = printed.join('\n').split('\n').slice(2)
    expect(first).toMatch(/^\(too many changes to diff by line: [0-9a-f]{12} \(\d+ B\) → [0-9a-f]{12} \(\d+ B\); below, the two versions/)
    expect(rest[0]).toBe('@@ -1,38000 +1,38000 @@')
  })

  it('says so in HTML and Markdown exports, with both sizes and hashes, and the two versions cut as any long diff', { timeout: 60_000 }, async () => {
    setup(38_000)
    const service = new ExportService(ws.rt)
    for (const format of ['html', 'md'] as const) {
      const { content } = await service.render({ sessionId: ws.writer.id, format, withFiles: false, redact: false, keep: [] })
      expect(content).toMatch(/Too many changes to diff by line\. Before: [\d,]+ bytes, sha256 [0-9a-f]{12}; after: [\d,]+ bytes, sha256 [0-9a-f]{12}\./)
      expect(content).toContain('-old line 0')
      expect(content).toMatch(/Truncated[^:]*: [\d,]+ more diff lines not shown/)
    }
  })

  it('diffs within the bounds as before: 500 lines all changed', async () => {
    const { call, pathId } = setup(500)
    const diff = await call('files.diff', { sessionId: ws.writer.id, pathId, fromTurn: 1, toTurn: 2 })
    expect(diff).toMatchObject({ tooManyChanges: false, added: 500, removed: 500 })
  })
})

describe('line counts, kept once computed (R28)', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function setup(before: string, after: string) {
    ws = agentWorkspace({ 'a.txt': before })
    ws.agent.turn('edit')
    ws.agent.write('a.txt', after)
    const dispatch = createDispatcher<null>({ handlers: ws.rt.handlers, authorize: () => null })
    return async () => {
      const result = await dispatch('changes.ofTurn', { sessionId: ws.writer.id, turn: 1 }, null)
      if (!result.ok) throw new Error(result.error.message)
      return (result.data as MethodOutput<'changes.ofTurn'>).items
    }
  }

  /** Spoil both stored contents, so anything that diffs them again fails (their reads are verified). */
  const spoilSnapshots = () => {
    databaseOf(ws.rt.store).prepare("UPDATE blobs SET data = x'00', encoding = 'raw' WHERE storage = 'inline'").run()
    const files = readdirSync(join(ws.rt.store.dataDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    for (const file of files) writeFileSync(join(file.parentPath, file.name), 'spoilt')
  }

  it('answers a turn header from the stored +N −M, without reading the contents again', async () => {
    const ofTurn = setup('one\ntwo\nthree\n', 'one\n2\nthree\nfour\n')
    expect(await ofTurn()).toMatchObject([{ added: 2, removed: 1 }])
    spoilSnapshots()
    expect(await ofTurn()).toMatchObject([{ added: 2, removed: 1 }])
  })

  it('keeps "too many changes" too: a header past the bounds is not diffed again on every view', { timeout: 60_000 }, async () => {
    const ofTurn = setup(lines('old', 38_000), lines('new', 38_000))
    expect(await ofTurn()).toMatchObject([{ added: null, removed: null, tooManyChanges: true }])
    spoilSnapshots()
    expect(await ofTurn()).toMatchObject([{ added: null, removed: null, tooManyChanges: true }])
  })
})
