import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type RelPath } from '../../fs/paths'
import { openStore, type Store } from '../store'

describe('rewinds of files, and what start-up recovery did with interrupted ones (rewinds)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  let sessionRowId: number
  let scopeId: number
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(1_000_000)
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-rewinds-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w', { now: 1000 })
    sessionRowId = store.sessions.insert({ uid: 's', workspaceId, source: 'retrace', title: 'S', kind: 'main', createdAt: 1000 })
    scopeId = store.journal.openScope({ workspaceId, sessionRowId, turn: null, kind: 'rewind' })
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
    vi.useRealTimers()
  })

  const start = (id: string, fields: { sessionRowId?: number | null; workspaceId?: number; undoOf?: string | null } = {}) =>
    store.rewinds.insert({ id, workspaceId, sessionRowId, targetTurn: 2, undoOf: null, beforeScopeId: scopeId, ...fields })
  /** A stored blob, so that a conflict row may name it. */
  const blob = (hash: string) => {
    store.blobs.insert({ hash, size: 1, storage: 'inline', encoding: 'raw', dictionaryId: null, data: Buffer.from('x'), createdAt: 1 })
    return hash
  }

  it('starts applying and records how it finished, keeping the summary when none is given', () => {
    start('r1')
    expect(store.rewinds.get('r1')).toEqual({
      id: 'r1',
      workspaceId: workspaceId,
      sessionRowId: sessionRowId,
      targetTurn: 2,
      undoOf: null,
      beforeScopeId: scopeId,
      status: 'applying',
      summary: '{}',
      createdAt: 1_000_000,
      finishedAt: null,
      recoveredAt: null,
      recoverySeenAt: null
    })
    vi.setSystemTime(1_000_500)
    store.rewinds.finish('r1', 'applied', { changed: 3 })
    expect(store.rewinds.get('r1')).toMatchObject({ status: 'applied', summary: '{"changed":3}', finishedAt: 1_000_500 })
    store.rewinds.finish('r1', 'failed')
    expect(store.rewinds.get('r1')).toMatchObject({ status: 'failed', summary: '{"changed":3}' })
    store.rewinds.markUndone('r1')
    expect(store.rewinds.get('r1')?.status).toBe('undone')
    expect(store.rewinds.get('missing')).toBeUndefined()
  })

  it("lists a session's rewinds oldest first, an undo pointing at what it undid", () => {
    vi.setSystemTime(2_000_000)
    start('later')
    vi.setSystemTime(1_500_000)
    start('earlier')
    vi.setSystemTime(3_000_000)
    start('undo', { undoOf: 'later' })
    start('elsewhere', { sessionRowId: null })
    expect(store.rewinds.ofSession(sessionRowId).map((r) => [r.id, r.undoOf])).toEqual([
      ['earlier', null],
      ['later', null],
      ['undo', 'later']
    ])
  })

  it('records a recovery: rolled back, with each conflict as found (saved or not) beside the version before the rewind', () => {
    start('r1')
    const latin1 = Buffer.from([0x62, 0xe9]) as RelPath // "b" then a byte that is not UTF-8 on its own
    const found = blob('f'.repeat(64))
    const before = blob('b'.repeat(64))
    vi.setSystemTime(1_000_700)
    store.rewinds.recordRecovery('r1', [
      { path: Buffer.from('d/link') as RelPath, found: { kind: 'symlink', hash: found, size: 4, mode: 0o777 }, saved: true, before: { kind: 'file', hash: before, size: 9, mode: 0o644 } },
      { path: latin1, found: { kind: 'file', hash: 'not-saved', size: 5, mode: 0o600 }, saved: false, before: null },
      { path: Buffer.from('a/dir') as RelPath, found: { kind: 'directory' }, saved: false, before: { kind: 'file', hash: before, size: 9, mode: 0o644 } },
      { path: Buffer.from('c/gone') as RelPath, found: null, saved: false, before: { kind: 'symlink', hash: before, size: 9, mode: 0o777 } }
    ])
    expect(store.rewinds.get('r1')).toMatchObject({ status: 'rolled_back', finishedAt: 1_000_700, recoveredAt: 1_000_700, recoverySeenAt: null })
    const [recovery] = store.rewinds.recoveries()
    expect(recovery?.rewind.id).toBe('r1')
    expect(recovery?.conflicts).toEqual([
      { path: Buffer.from('a/dir'), found: { kind: 'directory' }, saved: false, before: { kind: 'file', hash: before, size: 9, mode: 0o644 } },
      { path: latin1, found: { kind: 'file', hash: '', size: 5, mode: 0o600 }, saved: false, before: null }, // an unsaved find keeps no hash
      { path: Buffer.from('c/gone'), found: null, saved: false, before: { kind: 'symlink', hash: before, size: 9, mode: 0o777 } },
      { path: Buffer.from('d/link'), found: { kind: 'symlink', hash: found, size: 4, mode: 0o777 }, saved: true, before: { kind: 'file', hash: before, size: 9, mode: 0o644 } }
    ])
    expect(store.rewinds.recoverySaved(workspaceId, found)).toBe(true)
    expect(store.rewinds.recoverySaved(workspaceId, before)).toBe(false) // only what recovery saved counts
    expect(store.rewinds.recoverySaved(workspaceId + 1, found)).toBe(false)
  })

  it('lists recoveries newest first, by workspace, and the unseen ones until the user dismisses them', () => {
    const other = store.workspaces.open(join(dataDir, 'other'), 'other')
    start('first')
    start('second')
    start('elsewhere', { workspaceId: other, sessionRowId: null })
    start('not-recovered')
    vi.setSystemTime(1_100_000)
    store.rewinds.recordRecovery('first', [])
    vi.setSystemTime(1_200_000)
    store.rewinds.recordRecovery('second', [])
    store.rewinds.recordRecovery('elsewhere', [])
    const ids = (options: { workspaceId?: number; unseenOnly?: boolean }) => store.rewinds.recoveries(options).map((r) => r.rewind.id)
    expect(ids({ workspaceId })).toEqual(['second', 'first'])
    expect(ids({}).sort()).toEqual(['elsewhere', 'first', 'second'])
    expect(store.rewinds.markRecoverySeen('second')).toBe(true)
    expect(store.rewinds.markRecoverySeen('not-recovered')).toBe(false) // no recovery finished it
    expect(ids({ workspaceId, unseenOnly: true })).toEqual(['first'])
    expect(ids({ workspaceId })).toEqual(['second', 'first'])
    expect(store.rewinds.get('second')?.recoverySeenAt).toBe(1_200_000)
  })

  it("dates a turn's checkpoint by its first message, never before the workspace was known here", () => {
    const message = (seq: number, turn: number, createdAt: number | null) => store.messages.insert({ sessionRowId, seq, turn, role: 'user', content: '', createdAt })
    message(0, 1, 500) // an imported history's time, before the workspace was opened here
    message(1, 2, 7000)
    message(2, 2, 6000)
    message(3, 3, null)
    expect(store.rewinds.checkpointTime(sessionRowId, 1)).toBe(1000)
    expect(store.rewinds.checkpointTime(sessionRowId, 2)).toBe(6000)
    expect(store.rewinds.checkpointTime(sessionRowId, 3)).toBeNull()
    expect(store.rewinds.checkpointTime(sessionRowId, 9)).toBeNull()
    expect(store.rewinds.checkpointTime(sessionRowId + 100, 1)).toBeNull()
  })
})
