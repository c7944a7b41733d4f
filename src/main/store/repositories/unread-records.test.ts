import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../store'

describe('records importers did not read (unread_records)', () => {
  let dataDir: string
  let store: Store
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-unread-records-'))
    store = openStore(dataDir)
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const importRow = (workspaceId: number, path: string) =>
    store.importFiles.save({ workspaceId, source: 'codex', path, sessionRowId: null, dev: 1, ino: 1, mtimeMs: null, headSha256: 'h', tailSha256: null, offset: 10, parserStateJson: 'null', importState: {} })
  const seen = (what: string, offset: number, agentVersion: string | null = '0.160.0') => ({ what, offset, agentVersion })

  it('sums per source, version and kind, keeps the first place seen, and goes with its file', () => {
    const one = store.workspaces.open('/w/one', 'one')
    const fileA = importRow(one, '/codex/a.jsonl')
    const fileB = importRow(one, '/codex/b.jsonl')
    store.unreadRecords.add(fileA, [seen('event_msg "foo"', 40), seen('event_msg "foo"', 90), seen('line type "bar"', 50, null)])
    store.unreadRecords.add(fileA, [seen('event_msg "foo"', 300)])
    store.unreadRecords.add(fileB, [seen('event_msg "foo"', 7)])
    expect(store.unreadRecords.ofWorkspace(one)).toEqual([
      { source: 'codex', agentVersion: '0.160.0', what: 'event_msg "foo"', count: 4, example: { file: '/codex/a.jsonl', offset: 40 } },
      { source: 'codex', agentVersion: null, what: 'line type "bar"', count: 1, example: { file: '/codex/a.jsonl', offset: 50 } }
    ])
    // Read whole again: counted afresh. Its import row deleted (read again from the start): gone.
    store.unreadRecords.replace(fileA, [seen('event_msg "foo"', 40)])
    expect(store.unreadRecords.ofWorkspace(one)).toMatchObject([{ what: 'event_msg "foo"', count: 2 }])
    store.importFiles.delete(fileB)
    expect(store.unreadRecords.ofWorkspace(one)).toMatchObject([{ what: 'event_msg "foo"', count: 1 }])
  })

  it('counts a file imported into two workspaces once everywhere, and each workspace its own', () => {
    const outer = store.workspaces.open('/w', 'w')
    const inner = store.workspaces.open('/w/inner', 'inner')
    store.unreadRecords.add(importRow(outer, '/codex/a.jsonl'), [seen('event_msg "foo"', 1), seen('event_msg "foo"', 2)])
    store.unreadRecords.add(importRow(inner, '/codex/a.jsonl'), [seen('event_msg "foo"', 1), seen('event_msg "foo"', 2)])
    store.unreadRecords.add(importRow(inner, '/codex/c.jsonl'), [seen('event_msg "foo"', 3)])
    expect(store.unreadRecords.ofWorkspace(outer)).toMatchObject([{ count: 2 }])
    expect(store.unreadRecords.ofWorkspace(inner)).toMatchObject([{ count: 3 }])
    expect(store.unreadRecords.everywhere()).toMatchObject([{ source: 'codex', what: 'event_msg "foo"', count: 3 }])
  })
})
