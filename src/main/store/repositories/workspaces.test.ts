import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../store'

describe('the folders a user has opened (workspaces)', () => {
  let dataDir: string
  let store: Store
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'retrace-workspaces-'))
    store = openStore(dataDir)
  })
  afterEach(() => {
    store.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const addSession = (workspaceId: number, uid: string, source: string, createdAt: number) =>
    store.sessions.insert({ uid, workspaceId, source, title: uid, kind: 'main', createdAt })

  it('opens a folder once: opening it again keeps its id and name and refreshes its last-opened time', () => {
    const id = store.workspaces.open('/home/u/app', 'app', { now: 100 })
    expect(store.workspaces.open('/home/u/app', 'renamed', { now: 200 })).toBe(id)
    expect(store.workspaces.get(id)).toEqual({ id, path: '/home/u/app', name: 'app', isDemo: false, sessionCount: 0, lastActivityAt: null, lastOpenedAt: 200, sources: [] })
    expect(store.workspaces.getByPath('/home/u/app')?.id).toBe(id)
    expect(store.workspaces.get(id + 1)).toBeUndefined()
    expect(store.workspaces.getByPath('/home/u/other')).toBeUndefined()
  })

  it('keeps a demo a demo: a later ordinary open does not clear the flag', () => {
    const id = store.workspaces.open('/demo', 'demo', { isDemo: true, now: 1 })
    store.workspaces.open('/demo', 'demo', { now: 2 })
    expect(store.workspaces.get(id)?.isDemo).toBe(true)
    const plain = store.workspaces.open('/plain', 'plain', { now: 3 })
    store.workspaces.open('/plain', 'plain', { isDemo: true, now: 4 })
    expect(store.workspaces.get(plain)?.isDemo).toBe(true) // a folder opened as the demo becomes one
  })

  it('summarises its sessions: their count, the latest activity, and each source by count, most first', () => {
    const id = store.workspaces.open('/w', 'w', { now: 1 })
    const other = store.workspaces.open('/other', 'other', { now: 1 })
    addSession(id, 'a', 'codex', 10)
    addSession(id, 'b', 'claude-code', 30)
    addSession(id, 'c', 'claude-code', 20)
    addSession(other, 'd', 'codex', 99)
    expect(store.workspaces.get(id)).toMatchObject({
      sessionCount: 3,
      lastActivityAt: 30,
      sources: [
        { source: 'claude-code', count: 2 },
        { source: 'codex', count: 1 }
      ]
    })
  })

  it('lists the most recently opened first, and all of them by age, oldest first', () => {
    const first = store.workspaces.open('/a', 'a', { now: 10 })
    const second = store.workspaces.open('/b', 'b', { now: 30 })
    const third = store.workspaces.open('/c', 'c', { now: 20 })
    store.workspaces.touch(first, 40)
    expect(store.workspaces.listRecent(10).map((w) => w.id)).toEqual([first, second, third])
    expect(store.workspaces.listRecent(2).map((w) => w.id)).toEqual([first, second])
    expect(store.workspaces.listAll().map((w) => w.name)).toEqual(['a', 'b', 'c'])
    expect(store.workspaces.get(first)?.lastOpenedAt).toBe(40)
  })
})
