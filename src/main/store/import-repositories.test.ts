import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from './store'
import { databaseOf } from './raw-database'
import { PROGRESS_SQL } from './repositories/import-files'

describe('the repositories of imported files', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-import-repos-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const row = { workspaceId: 0, source: 'claude-code', path: '/h/a.jsonl', sessionRowId: null, dev: 1, ino: 2, mtimeMs: 1000.5, headSha256: 'ab', tailSha256: 'cd', offset: 10, parserStateJson: '{"line":3}', importState: { title: 't' } }

  it("import_files: saves a file's progress, replaces it on the next save, and lists it by source and path", () => {
    store.importFiles.save({ ...row, workspaceId })
    expect(store.importFiles.get(workspaceId, 'claude-code', '/h/a.jsonl')).toMatchObject({ offset: 10, tailSha256: 'cd', mtimeMs: 1000.5, parserState: { line: 3 }, importState: { title: 't' } })
    store.importFiles.save({ ...row, workspaceId, offset: 20, mtimeMs: null, parserStateJson: 'null' })
    const saved = store.importFiles.get(workspaceId, 'claude-code', '/h/a.jsonl')
    expect(saved).toMatchObject({ offset: 20, mtimeMs: null, parserState: null })
    store.importFiles.setModified(saved?.id ?? -1, 2000)
    expect(store.importFiles.progressOf(workspaceId)).toEqual(new Map([['claude-code\0/h/a.jsonl', { key: 'claude-code\0/h/a.jsonl', dev: 1, ino: 2, offset: 20, mtimeMs: 2000, fileSize: null }]]))
    store.importFiles.delete(saved?.id ?? -1)
    expect(store.importFiles.get(workspaceId, 'claude-code', '/h/a.jsonl')).toBeUndefined()
  })

  it("import_files: reads a workspace's progress from an index alone, never the rows with their parser state", () => {
    const plan = (databaseOf(store).prepare(`EXPLAIN QUERY PLAN ${PROGRESS_SQL}`).all(workspaceId) as { detail: string }[]).map((step) => step.detail)
    expect(plan).toEqual([expect.stringMatching(/^SEARCH import_files USING COVERING INDEX/)])
  })

  it('import_files: finds a file by its content key and moves its import to another path', () => {
    const plain = { ...row, workspaceId, source: 'codex', path: '/c/sessions/2026/01/02/rollout-x.jsonl', contentKey: 'rollout-x.jsonl' }
    store.importFiles.save(plain)
    store.importFiles.save({ ...plain, path: '/c/other.jsonl', contentKey: 'other.jsonl' })
    const [found, ...more] = store.importFiles.withContentKey(workspaceId, 'codex', 'rollout-x.jsonl')
    expect(more).toEqual([])
    expect(found).toMatchObject({ path: plain.path, contentKey: 'rollout-x.jsonl', offset: 10, mtimeMs: 1000.5 })
    store.importFiles.move(found?.id ?? -1, '/c/archived_sessions/rollout-x.jsonl.zst', { dev: 7, ino: 8 })
    expect(store.importFiles.get(workspaceId, 'codex', plain.path)).toBeUndefined()
    // Moved, not read to its end there yet: the next import compares what it holds.
    expect(store.importFiles.get(workspaceId, 'codex', '/c/archived_sessions/rollout-x.jsonl.zst')).toMatchObject({ id: found?.id, dev: 7, ino: 8, offset: 10, mtimeMs: null, fileSize: null, headSha256: 'ab' })
    store.importFiles.setModified(found?.id ?? -1, 3000, 4)
    expect(store.importFiles.progressOf(workspaceId).get('codex\0/c/archived_sessions/rollout-x.jsonl.zst')).toMatchObject({ offset: 10, mtimeMs: 3000, fileSize: 4 })
  })

  it('discovered_files: keeps one entry per path, the latest', () => {
    store.discoveredFiles.save([{ path: '/h/a.jsonl', signature: 's1', facts: '{"cwd":"/a"}' }])
    store.discoveredFiles.save([{ path: '/h/a.jsonl', signature: 's2', facts: '{"cwd":"/b"}' }, { path: '/h/b.jsonl', signature: 's3', facts: '{}' }])
    expect(store.discoveredFiles.all()).toEqual(
      new Map([
        ['/h/a.jsonl', { signature: 's2', facts: '{"cwd":"/b"}' }],
        ['/h/b.jsonl', { signature: 's3', facts: '{}' }]
      ])
    )
  })

  it('source_folders: adds a folder once, lists it, and removes it only from its workspace', () => {
    const added = store.sourceFolders.add(workspaceId, 'codex', '/backup/codex', 5)
    expect(store.sourceFolders.add(workspaceId, 'codex', '/backup/codex', 9)).toEqual(added) // added again: unchanged
    expect(store.sourceFolders.list(workspaceId)).toEqual([{ id: added.id, workspaceId, source: 'codex', path: '/backup/codex', addedAt: 5 }])
    const other = store.workspaces.open(join(dataDir, 'other'), 'other')
    expect(store.sourceFolders.remove(other, added.id)).toBe(false)
    expect(store.sourceFolders.remove(workspaceId, added.id)).toBe(true)
    expect(store.sourceFolders.list(workspaceId)).toEqual([])
  })
})
