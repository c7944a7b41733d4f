import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LOOKUP_BATCH } from '../batched-lookup'
import { type RelPath } from '../../fs/paths'
import { openStore, type Store } from '../store'
import { type FileVersion, type NewEntry } from './journal'

const V1: FileVersion = { kind: 'file', hash: '1'.repeat(64), size: 10, mode: 0o644 }
const V2: FileVersion = { kind: 'file', hash: '2'.repeat(64), size: 20, mode: 0o755 }
const V3: FileVersion = { kind: 'symlink', hash: '3'.repeat(64), size: 3, mode: 0o777 }
const path = (text: string | Buffer) => (typeof text === 'string' ? Buffer.from(text) : text) as RelPath
/** "caf" and a Latin-1 é: a name that is not UTF-8. */
const LATIN1 = path(Buffer.from([0x63, 0x61, 0x66, 0xe9]))

describe('which files each turn or rewind changed, from what to what (journal)', () => {
  let dataDir: string
  let store: Store
  let workspaceId: number
  let sessionRowId: number
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-journal-'))
    store = openStore(dataDir)
    workspaceId = store.workspaces.open(join(dataDir, 'w'), 'w')
    sessionRowId = store.sessions.insert({ uid: 's', workspaceId, source: 'retrace', title: 'S', kind: 'main', createdAt: 1 })
    for (const hash of [V1.hash, V2.hash, V3.hash]) store.blobs.insert({ hash, size: 1, storage: 'inline', encoding: 'raw', dictionaryId: null, data: Buffer.from(hash), createdAt: 1 })
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const entry = (scopeId: number, fields: Partial<NewEntry>): NewEntry => ({ scopeId, op: 'modify', path: path('a.txt'), fromPath: null, before: V1, after: V2, observed: 'scan', createdAt: 5, ...fields })
  const turnScope = (turn: number, session: number | null = sessionRowId) => store.journal.openScope({ workspaceId, sessionRowId: session, turn, kind: 'turn' })

  it('opens, finds and closes scopes: a turn scope is found by its session and turn, a rewind scope is not', () => {
    const first = turnScope(1)
    turnScope(1) // a second scope of the same turn: the first is the turn's
    const rewind = store.journal.openScope({ workspaceId, sessionRowId, turn: 2, kind: 'rewind' })
    expect(store.journal.turnScope(sessionRowId, 1)).toEqual({ id: first, workspaceId, sessionRowId, turn: 1, kind: 'turn', status: 'open' })
    expect(store.journal.turnScope(sessionRowId, 2)).toBeUndefined()
    store.journal.closeScope(rewind)
    expect(store.journal.scope(rewind)).toEqual({ id: rewind, workspaceId, sessionRowId, turn: 2, kind: 'rewind', status: 'closed' })
    expect(store.journal.scope(rewind + 100)).toBeUndefined()
  })

  it('reads entries back as written, names that are not UTF-8 byte for byte, a missing side as null', () => {
    const scopeId = turnScope(1)
    const created = store.journal.addEntry(entry(scopeId, { op: 'create', path: LATIN1, before: null, after: V3, observed: 'tool' }))
    store.journal.addEntry(entry(scopeId, { op: 'rename', path: path('new.txt'), fromPath: LATIN1, before: V3, after: V3, observed: 'patch' }))
    store.journal.addEntry(entry(scopeId, { op: 'delete', path: path('gone.txt'), before: V2, after: null }))
    const entries = store.journal.entriesOfScope(scopeId)
    expect(entries[0]).toEqual({ id: created, scopeId, op: 'create', path: LATIN1, fromPath: null, before: null, after: V3, observed: 'tool', createdAt: 5 })
    expect(entries[0]?.path.equals(Buffer.from('café'))).toBe(false) // the raw byte, not re-encoded as UTF-8
    expect(entries.map((e) => [e.op, e.path.toString('latin1'), e.fromPath?.toString('latin1') ?? null, e.before?.hash ?? null, e.after?.hash ?? null])).toEqual([
      ['create', 'caf\u00e9', null, null, V3.hash],
      ['rename', 'new.txt', 'caf\u00e9', V3.hash, V3.hash],
      ['delete', 'gone.txt', null, V2.hash, null]
    ])
  })

  it("lists a session's changes from a turn on, and a path's history across the workspace", () => {
    const [one, two, three] = [turnScope(1), turnScope(2), turnScope(3)]
    const rewind = store.journal.openScope({ workspaceId, sessionRowId: null, turn: null, kind: 'rewind' })
    store.journal.addEntry(entry(three, { path: path('a.txt') }))
    store.journal.addEntry(entry(one, { path: path('a.txt') }))
    store.journal.addEntry(entry(two, { op: 'rename', path: path('b.txt'), fromPath: path('a.txt') }))
    store.journal.addEntry(entry(rewind, { path: path('a.txt'), observed: 'rewind' }))
    store.journal.addEntry(entry(two, { path: path('c.txt') }))

    expect(store.journal.sessionEntriesFrom(sessionRowId, 2).map((e) => [e.turn, e.path.toString()])).toEqual([
      [2, 'b.txt'],
      [2, 'c.txt'],
      [3, 'a.txt']
    ])
    expect(store.journal.pathHistory(workspaceId, path('a.txt')).map((e) => [e.turn, e.sessionRowId, e.op])).toEqual([
      [3, sessionRowId, 'modify'],
      [1, sessionRowId, 'modify'],
      [2, sessionRowId, 'rename'], // renamed away from the path
      [null, null, 'modify'] // the rewind
    ])
    const otherWorkspace = store.workspaces.open(join(dataDir, 'other'), 'other')
    expect(store.journal.pathHistory(otherWorkspace, path('a.txt'))).toEqual([])
  })

  it('knows whether the workspace recorded a version, on either side of a change', () => {
    const scopeId = turnScope(1)
    store.journal.addEntry(entry(scopeId, { before: null, after: V2 }))
    store.journal.addEntry(entry(scopeId, { before: V3, after: null }))
    expect(store.journal.recorded(workspaceId, V2.hash)).toBe(true)
    expect(store.journal.recorded(workspaceId, V3.hash)).toBe(true)
    expect(store.journal.recorded(workspaceId, V1.hash)).toBe(false)
    expect(store.journal.recorded(workspaceId + 1, V2.hash)).toBe(false)
  })

  describe('versionsSeenHere', () => {
    const seen = (paths: RelPath[], sources: string[] = ['retrace']) =>
      store.journal
        .versionsSeenHere(workspaceId, paths, sources)
        .map(({ path: seenPath, version }) => `${seenPath.toString('latin1')}@${version.hash[0] ?? ''}`)
        .sort()

    it("counts both sides of what this machine's own scans journaled, and only scans of its own sources", () => {
      const own = turnScope(1)
      store.journal.addEntry(entry(own, { path: path('a.txt'), before: V1, after: V2 }))
      store.journal.addEntry(entry(own, { path: path('tool.txt'), observed: 'tool' })) // told by the agent, not seen on disk
      const imported = store.sessions.insert({ uid: 'imported', workspaceId, source: 'claude-code', title: '', kind: 'main', createdAt: 1 })
      store.journal.addEntry(entry(turnScope(1, imported), { path: path('b.txt'), before: V1, after: V3 }))
      expect(seen([path('a.txt'), path('tool.txt'), path('b.txt')])).toEqual(['a.txt@1', 'a.txt@2'])
      expect(seen([path('b.txt')], ['retrace', 'claude-code'])).toEqual(['b.txt@1', 'b.txt@3'])
      expect(seen([path('never.txt')])).toEqual([])
    })

    it('counts what a rewind found (its before side), not what it wrote, and a kept copy under its new name', () => {
      const rewind = store.journal.openScope({ workspaceId, sessionRowId, turn: 1, kind: 'rewind' })
      store.journal.addEntry(entry(rewind, { path: path('r.txt'), before: V1, after: V2, observed: 'rewind' }))
      store.journal.addEntry(entry(rewind, { op: 'rename', path: path('r.txt.kept'), fromPath: path('k.txt'), before: V3, after: V3, observed: 'rewind' }))
      store.journal.addEntry(entry(rewind, { path: path('s.txt'), before: V1, after: V2, observed: 'scan' })) // not the rewind's own observation
      expect(seen([path('r.txt'), path('k.txt'), path('s.txt')])).toEqual(['k.txt@3', 'r.txt.kept@3', 'r.txt@1'])
      // A rename is found by either of its names.
      expect(seen([path('r.txt.kept')])).toEqual(['k.txt@3', 'r.txt.kept@3'])
    })

    it('finds names that are not UTF-8, past one lookup batch, only in this workspace', () => {
      const own = turnScope(1)
      store.journal.addEntry(entry(own, { path: LATIN1, before: null, after: V2 }))
      const many = [...Array.from({ length: LOOKUP_BATCH }, (_, i) => path(`filler-${i}`)), LATIN1]
      expect(seen(many)).toEqual(['caf\u00e9@2'])
      expect(seen([path('café')])).toEqual([]) // the UTF-8 spelling is another name
      const found = store.journal.versionsSeenHere(workspaceId, [LATIN1], ['retrace'])
      expect(found[0]?.path.equals(LATIN1)).toBe(true)
      expect(store.journal.versionsSeenHere(workspaceId + 1, [LATIN1], ['retrace'])).toEqual([])
    })
  })
})
