import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { databaseOf } from './raw-database'
import { MAX_PREFIX_TERMS } from './repositories/search-index'
import { openStore, type Store } from './store'

describe('search by a typed prefix, through the index’s own terms (R76)', () => {
  let dataDir: string
  let store: Store
  let workspaces: number[]
  const sessions: number[] = []
  let seq = 0
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-search-prefix-'))
    store = openStore(dataDir)
    workspaces = ['a', 'b'].map((name) => store.workspaces.open(join(dataDir, name), name))
    sessions.length = 0
    for (const [index, workspaceId] of workspaces.entries()) {
      sessions.push(store.sessions.insert({ uid: `s${index}`, workspaceId, source: 'retrace', title: 't', kind: 'main', createdAt: 1 }))
    }
    seq = 0
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const write = (content: string, session = 0) => store.messages.insert({ sessionRowId: sessions[session] ?? 0, seq: seq++, turn: 1, role: 'user', content })
  const search = (query: string, options: { workspaceId?: number; limit?: number; offset?: number } = {}) =>
    (store.searchIndex.search(query, { limit: 200, offset: 0, ...options }) ?? []).map((hit) => hit.messageId)
  /** What FTS5's own prefix query matches (the meaning the term list must keep). */
  const prefixMatches = (match: string) =>
    (databaseOf(store).prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').pluck().all(match) as number[])

  it('finds what FTS5’s prefix query finds, whatever the case typed, with earlier words whole', () => {
    for (const text of ['the cat', 'then a test', 'There it failed', 'theme', 'other', 'test failure', 'test fail', 'a test that FAILS', 'th']) write(text)
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)
    expect(sorted(search('the'))).toEqual(prefixMatches('"the"*'))
    expect(sorted(search('THE'))).toEqual(prefixMatches('"the"*'))
    expect(sorted(search('test fai'))).toEqual(prefixMatches('"test" "fai"*'))
    expect(search('test fai')).toHaveLength(3)
    expect(search('zzz')).toEqual([])
  })

  it('weighs each term of the prefix as a word of its own: a rare one ranks above a common one', () => {
    const rare = write('theorem of cats')
    for (let i = 0; i < 20; i++) write('the cat sat')
    // One prefix phrase gives every row the same score, so the newest came first and the rare one last.
    expect(search('the')[0]).toBe(rare)
  })

  it('keeps the workspace filter, and pages by offset without repeating or skipping', () => {
    for (let i = 0; i < 30; i++) write(`${i % 2 ? 'thesis' : 'these'} number ${i}`, i % 3 === 0 ? 1 : 0)
    const inB = search('the', { workspaceId: workspaces[1] ?? 0 })
    expect(inB).toHaveLength(10)
    const all = search('the')
    expect(all).toHaveLength(30)
    const paged = [0, 7, 14, 21, 28].flatMap((offset) => search('the', { limit: 7, offset }))
    expect(paged).toEqual(all)
  })

  it('leaves a prefix of more than MAX_PREFIX_TERMS terms to FTS5, and still finds every row', () => {
    for (let i = 0; i <= MAX_PREFIX_TERMS; i++) write(`word pre${i}x`)
    write('non-ascii Überprüfung') // not a plain word: FTS5's prefix query
    expect(search('pre')).toHaveLength(MAX_PREFIX_TERMS + 1)
    expect(search('word pre')).toHaveLength(MAX_PREFIX_TERMS + 1)
    expect(search('Überp')).toHaveLength(1)
  })
})
