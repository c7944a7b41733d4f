import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from './store'
import { databaseOf } from './raw-database'

describe('the search index filled in bulk after an import', () => {
  let dataDir: string
  let store: Store
  let session: number
  let seq = 0
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-search-index-'))
    store = openStore(dataDir)
    const workspaceId = store.workspaces.open(dataDir, 'w')
    session = store.sessions.insert({ uid: 's1', workspaceId, source: 'retrace', title: 't', kind: 'main', createdAt: 1 })
    seq = 0
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const write = (content: string) => store.messages.insert({ sessionRowId: session, seq: seq++, turn: 1, role: 'user', content })
  const found = (word: string) => (store.searchIndex.search(word, { limit: 50, offset: 0 }) ?? []).length
  /** FTS5's own check; against the messages too (`withContent`) once nothing waits. */
  const integrity = (withContent = true) => () => databaseOf(store).exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', ${withContent ? 1 : 0})`)

  it('leaves messages written while deferred out of the index until caught up, then finds every one', () => {
    write('indexed as written: walrus')
    store.searchIndex.defer()
    for (let i = 0; i < 25; i++) write(`deferred narwhal number ${i}`)
    expect(found('walrus')).toBe(1)
    expect(found('narwhal')).toBe(0)
    expect(store.searchIndex.behind).toBe(true)

    let steps = 1
    while (!store.searchIndex.catchUpStep({ rows: 10, bytes: 1 << 20 })) steps += 1
    expect(steps).toBe(3) // 25 messages, 10 a step
    expect(found('narwhal')).toBe(25)
    expect(store.searchIndex.behind).toBe(false)
    write('indexed as written again: narwhal')
    expect(found('narwhal')).toBe(26)
    expect(integrity()).not.toThrow()
  })

  it('keeps the index whole when waiting messages are deleted or rewritten, and when ids are reused', () => {
    const kept = write('old otter')
    store.searchIndex.defer()
    const deferred = write('waiting otter')
    const edited = write('waiting heron')
    databaseOf(store).prepare('DELETE FROM messages WHERE id = ?').run(deferred)
    databaseOf(store).prepare("UPDATE messages SET content = 'rewritten pelican' WHERE id = ?").run(edited)
    databaseOf(store).prepare("UPDATE messages SET content = 'old badger' WHERE id = ?").run(kept) // an indexed one, while deferred
    expect(integrity(false)).not.toThrow()
    expect(found('badger')).toBe(1)
    expect(found('otter')).toBe(0)
    // Every message deleted: the next one takes an id below the backlog's start, and is indexed at once.
    databaseOf(store).prepare('DELETE FROM messages').run()
    expect(write('reused id heron')).toBeLessThan(deferred)
    expect(found('heron')).toBe(1)
    expect(integrity(false)).not.toThrow()
    while (!store.searchIndex.catchUpStep()) {
      // until none are waiting
    }
    expect(found('pelican')).toBe(0)
    expect(found('heron')).toBe(1)
    expect(integrity()).not.toThrow()
  })

  it('takes a step of few rows when they are large, so one transaction holds a bounded amount of text', () => {
    store.searchIndex.defer()
    for (let i = 0; i < 6; i++) write(`big ${'word '.repeat(50_000)}`)
    let steps = 1
    while (!store.searchIndex.catchUpStep({ rows: 1000, bytes: 500_000 })) steps += 1
    expect(steps).toBe(3) // 250 KB each: two a step
    expect(found('big')).toBe(6)
  })
})
