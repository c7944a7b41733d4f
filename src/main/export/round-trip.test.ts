import { afterEach, describe, expect, it } from 'vitest'
import { contractCaller } from '../sources/testing/import-testbed'
import { tempDir, tempRuntime } from '../testing/temp-runtime'
import type { ExportDocument } from './document-schema'
import { parseExportJson, type ExportFile } from './json-format'
import { recordSampleSession } from './testing/sample-session'

/**
 * What an import does not keep, and why — the whole list:
 * - `exportedAt`: each export is stamped when it is written;
 * - `session.id`: the imported session is a new session (its source id is the exported one);
 * - `session.source`: an imported session's source is `retrace-export`;
 * - `tree` and `workspace`: the session lands alone in the workspace chosen for it (its old
 *   parent, branches and successors are not in that store).
 * Messages, checkpoints, usage, dates, title, kind, status, model, the context start, every
 * file change (path, operation, versions, modes, how it was observed, diff) and every file
 * content must come back equal.
 */
function comparable(file: ExportFile): Omit<ExportDocument, 'tree' | 'workspace'> {
  const { tree: _tree, workspace: _workspace, session, ...rest } = file.document
  return { ...rest, session: { ...session, id: 'not kept', source: 'native' } }
}

describe('JSON export round trip', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((dispose) => dispose()))

  function setup() {
    const ws = recordSampleSession()
    const other = tempRuntime()
    const folder = tempDir('retrace-import-ws-')
    cleanups.push(() => ws.dispose(), () => other.dispose(), () => folder.dispose())
    const workspaceId = other.store.workspaces.open(folder.path, 'colleague')
    return { ws, call: contractCaller(ws.rt), other, otherCall: contractCaller(other), workspaceId }
  }

  it('imports an export (with files) into another store as the same session, replayable and rewindable', async () => {
    const { ws, call, other, otherCall, workspaceId } = setup()
    const first = await call('export.render', { sessionId: ws.writer.id, format: 'json', redact: false, withFiles: true })
    const imported = await otherCall('export.importJson', { workspaceId, json: first.content })
    expect(imported).toMatchObject({ messages: 13, checkpoints: 3, fileChanges: 8, skipped: [], contentsChanged: 0 })

    const second = await otherCall('export.render', { sessionId: imported.sessionId, format: 'json', redact: false, withFiles: true })
    const [a, b] = [parseExportJson(first.content), parseExportJson(second.content)]
    expect(b.document.session).toMatchObject({ id: imported.sessionId, source: 'retrace-export' })
    expect(comparable(b)).toEqual(comparable(a))
    expect(a.document.fileContents).not.toBeNull()

    // The imported turns show their files through the same methods the window uses.
    const turn2 = await otherCall('changes.ofTurn', { sessionId: imported.sessionId, turn: 2 })
    expect(turn2.items.map((c) => [c.path, c.op])).toEqual([
      ['README.md', 'modify'],
      ['assets/logo.png', 'create'],
      ['notes/plain text.md', 'create'],
      ['scripts/run.sh', 'create'],
      ['old-name.txt', 'delete']
    ])
    const readme = turn2.items[0]?.pathId ?? ''
    expect((await otherCall('files.diff', { sessionId: imported.sessionId, pathId: readme, fromTurn: 2, toTurn: 3 })).patch).toContain('+Says hello, politely.')
    const plan = await otherCall('rewind.plan', { sessionId: imported.sessionId, turn: 2 })
    expect(plan.items.map((i) => [i.path, i.action, i.refused])).toContainEqual(['old-name.txt', 'create', null])
    expect(other.store.sessions.require(imported.sessionId)).toMatchObject({ parentId: null, depth: 0, forkSeq: null })
  })

  it('keeps the export\'s file changes from this store\'s blobs when the export carries no files', async () => {
    const { ws, call } = setup()
    const folder = tempDir('retrace-import-same-')
    cleanups.push(() => folder.dispose())
    const workspaceId = ws.rt.store.workspaces.open(folder.path, 'copy')
    const exported = await call('export.render', { sessionId: ws.branchId, format: 'json', redact: false })
    expect(parseExportJson(exported.content).document.fileContents).toBeNull()
    const imported = await call('export.importJson', { workspaceId, json: exported.content })
    const again = await call('export.render', { sessionId: imported.sessionId, format: 'json', redact: false })
    expect(comparable(parseExportJson(again.content))).toEqual(comparable(parseExportJson(exported.content)))
    await expect(call('export.importJson', { workspaceId, json: exported.content })).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('reports, and skips, file changes whose bytes neither the export nor the store has', async () => {
    const { ws, call, otherCall, workspaceId } = setup()
    const exported = await call('export.render', { sessionId: ws.writer.id, format: 'json', redact: false })
    const imported = await otherCall('export.importJson', { workspaceId, json: exported.content })
    expect(imported.messages).toBe(13)
    expect(imported.fileChanges).toBe(0)
    expect(imported.skipped[0]).toMatchObject({ turn: 1, path: 'src/greet.ts', reason: expect.stringContaining('--with-files') as string })
  })

  it('imports a redacted export with the redacted contents it carries', async () => {
    const secret = 'AKIAIOSFODNN7EXAMPLF'
    const ws = recordSampleSession(`the key is ${secret}`)
    const other = tempRuntime()
    const folder = tempDir('retrace-import-ws-')
    cleanups.push(() => ws.dispose(), () => other.dispose(), () => folder.dispose())
    const call = contractCaller(ws.rt)
    const review = await call('export.review', { sessionId: ws.writer.id, format: 'json', withFiles: true })
    expect(new Set(review.findings.map((f) => f.ruleName))).toEqual(new Set(['AWS Access Key ID']))
    const exported = await call('export.render', { sessionId: ws.writer.id, format: 'json', withFiles: true, token: review.token })
    expect(exported.content).not.toContain(secret)
    expect(exported.redactedCount).toBe(review.findings.length)
    expect(parseExportJson(exported.content).redaction).toEqual({ applied: true, hidden: review.findings.length })
    const imported = await contractCaller(other)('export.importJson', { workspaceId: other.store.workspaces.open(folder.path, 'colleague'), json: exported.content })
    expect(imported.skipped).toEqual([])
    expect(imported.contentsChanged).toBeGreaterThan(0)
  })

  it('refuses what is not a usable export, saying why', async () => {
    const { ws, call, otherCall, workspaceId } = setup()
    const importing = (json: string) => otherCall('export.importJson', { workspaceId, json })
    await expect(importing('{ nope')).rejects.toThrow(/not valid JSON/)
    await expect(importing('{"format":"something-else"}')).rejects.toThrow(/not a Retrace session export/)
    await expect(importing('{"format":"retrace-session-export","version":7}')).rejects.toMatchObject({ code: 'UNSUPPORTED' })
    const good = JSON.parse((await call('export.render', { sessionId: ws.writer.id, format: 'json', redact: false })).content) as ExportFile
    await expect(importing(JSON.stringify({ ...good, document: { ...good.document, messages: 'x' } }))).rejects.toThrow(/damaged or incomplete: document\.messages/)
    const shuffled = { ...good, document: { ...good.document, messages: [...good.document.messages].reverse() } }
    await expect(importing(JSON.stringify(shuffled))).rejects.toThrow(/inconsistent: message 1 is out of order/)
    const hostile = structuredClone(good)
    const change = hostile.document.fileChanges[0]
    if (change) Object.assign(change, { path: '../escape', pathId: Buffer.from('../escape').toString('base64') })
    const result = await importing(JSON.stringify(hostile))
    expect(result.skipped[0]?.reason).toMatch(/Refused the path "..\/escape"/)
    await expect(otherCall('export.importJson', { workspaceId: 999, json: (await call('export.render', { sessionId: ws.branchId, format: 'json', redact: false })).content })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses an export nested 100,000 levels deep with a sentence, not a stack overflow', async () => {
    const { ws, call, otherCall, workspaceId } = setup()
    const good = JSON.parse((await call('export.render', { sessionId: ws.writer.id, format: 'json', redact: false })).content) as ExportFile
    const call0 = good.document.messages.findIndex((message) => message.toolInput !== null)
    expect(call0).toBeGreaterThanOrEqual(0)
    const marked = structuredClone(good)
    Object.assign(marked.document.messages[call0] ?? {}, { toolInput: { deep: 'NESTED-HERE' } })
    const nested = JSON.stringify(marked).replace('"NESTED-HERE"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    const refused = otherCall('export.importJson', { workspaceId, json: nested })
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(refused).rejects.toThrow(/^VALIDATION: This export nests arrays and objects more than 128 levels deep \(at message \d+\), more than Retrace reads: it was not imported\. A file exported by Retrace never does; it may have been edited or made by another program\.$/)
  })
})

